// SPDX-License-Identifier: GPL-2.0
// Throws known exceptions once a line arrives on stdin, and prints, for each
// libstdc++ USDT probe it expects to fire (throw, catch, rethrow), the
// exception object's address and its type_info's address, as the program
// itself sees them.
#include <cstdio>
#include <typeinfo>

struct my_error {
	int code;
};

static void report(const char *probe, const void *obj, const std::type_info &ti)
{
	std::printf("%s %p %p\n", probe, obj, static_cast<const void *>(&ti));
}

int main()
{
	char line[16];

	std::setvbuf(stdout, nullptr, _IOLBF, 0);
	std::printf("ready\n");
	if (!std::fgets(line, sizeof(line), stdin))
		return 1;

	for (int i = 0; i < 3; i++) {
		try {
			throw my_error{i};
		} catch (my_error &e) {
			report("throw", &e, typeid(my_error));
			report("catch", &e, typeid(my_error));
		}
	}
	try {
		try {
			throw 42;
		} catch (int &x) {
			report("throw", &x, typeid(int));
			report("catch", &x, typeid(int));
			report("rethrow", &x, typeid(int));
			throw;
		}
	} catch (int &y) {
		report("catch", &y, typeid(int));
	}
	std::printf("done\n");
	return 0;
}
