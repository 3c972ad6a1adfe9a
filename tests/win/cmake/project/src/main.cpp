#include "shapes.h"

extern "C" int start(void) { return square_area(3) == 9 ? 0 : 1; }
