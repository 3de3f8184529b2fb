#!/usr/bin/env python3
"""Stage the hunks of FILE (in the current git work tree) whose text matches
REGEX, to split one file's changes between commits without an interactive
git add -p.  Usage: stage-hunks.py FILE REGEX [--invert]"""
import re, subprocess, sys

path, pattern = sys.argv[1], re.compile(sys.argv[2])
invert = '--invert' in sys.argv
diff = subprocess.run(['git', 'diff', '-U3', '--', path], capture_output=True,
                      text=True, check=True).stdout
head, *hunks = re.split(r'(?m)^(?=@@ )', diff)
keep = [h for h in hunks if bool(pattern.search(h)) != invert]
if not keep:
    sys.exit(f'{path}: no hunk matches')
subprocess.run(['git', 'apply', '--cached', '--recount', '-'], input=head + ''.join(keep),
               text=True, check=True)
print(f'{path}: staged {len(keep)} of {len(hunks)} hunks')
