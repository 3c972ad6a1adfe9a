#include "shapes.h"
#include "detail.h"

extern "C" int rectangle_area(int width, int height) { return detail::product(width, height) * SHAPES_SCALE; }
