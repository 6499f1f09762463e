#ifndef PONYTOP_CNCURSES_SHIM_H
#define PONYTOP_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#include <ncurses.h>
#endif
