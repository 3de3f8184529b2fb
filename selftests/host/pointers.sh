#!/usr/bin/env bash
# No hand-kept pointer that has gone stale: the READMEs (but the committed
# records) and the header comments of the project's sources name no patch
# or issue by number (patches by subject, commits as sha ("subject")), and
# every project or kernel-tree path they name in backquotes (READMEs) or
# as a path (headers) exists.  Paths under build/ and absolute ones are
# what a run makes or the machine has: not checked.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

cd "$TOP"
git ls-files -- '*.md' '*.c' '*.h' '*.sh' '*.py' '*.mk' 'Makefile' '*/Makefile' |
"$TOP/selftests/host/pointers.py" "$KSRC"
echo "ok: no patch or issue named by number, no path that does not exist"
