#ifndef PONYTOP_CNCURSES_SHIM_H
#define PONYTOP_CNCURSES_SHIM_H

// No pkg-config flags reach this header (Package.swift reads ncurses through the module map alone, and SwiftPM
// dropped ncursesw's -D_XOPEN_SOURCE=600 anyway); without this the wide-character API (mvaddwstr) is missing.
// Do not define _XOPEN_SOURCE here: it changes what glibc declares.
#define NCURSES_WIDECHAR 1
#include <ncurses.h>
#include <langinfo.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// Swift 6 rejects the mutable globals stdscr, LINES and COLS, and does not import function-like macros or the
// A_* attribute macros: these accessors stand in for them.

static inline WINDOW *ponytop_stdscr(void) { return stdscr; }
static inline FILE *ponytop_stdout(void) { return stdout; }
static inline FILE *ponytop_stdin(void) { return stdin; }
static inline int ponytop_lines(void) { return LINES; }
static inline int ponytop_cols(void) { return COLS; }
static inline int ponytop_colors(void) { return COLORS; }

static inline void ponytop_getmaxyx(WINDOW *window, int *rows, int *columns) {
    int y, x;
    getmaxyx(window, y, x);
    *rows = y;
    *columns = x;
}

static inline attr_t ponytop_a_normal(void) { return A_NORMAL; }
static inline attr_t ponytop_a_bold(void) { return A_BOLD; }
static inline attr_t ponytop_a_reverse(void) { return A_REVERSE; }
static inline attr_t ponytop_a_dim(void) { return A_DIM; }
static inline attr_t ponytop_a_underline(void) { return A_UNDERLINE; }

static inline int ponytop_wattrset(WINDOW *window, attr_t attributes) { return wattrset(window, attributes); }

static inline nl_item ponytop_codeset(void) { return CODESET; }

static inline int ponytop_key_f(int n) { return KEY_F(n); }

// The terminal's size from the kernel, for resizeterm after SIGWINCH. Returns 0 on success.
static inline int ponytop_window_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

#endif
