#ifndef SHAPES_H
#define SHAPES_H
#include "config.h"
#ifdef __cplusplus
extern "C" {
#endif
int square_area(int side);
int rectangle_area(int width, int height);
#ifdef __cplusplus
}
#endif
#endif
