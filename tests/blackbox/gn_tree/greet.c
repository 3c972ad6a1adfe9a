#include <stdio.h>
void greet(const char* name) { printf("hello, %s\n", name); }
