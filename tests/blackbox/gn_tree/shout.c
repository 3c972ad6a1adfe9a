#include <stdio.h>
void shout(const char* word) { printf("%s!\n", word); }
