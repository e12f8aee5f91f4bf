/*
 * source_tokens.h - integrand source as C preprocessing tokens, for the
 * checks of source_scan.h: line splices (backslash-newline) joined,
 * comments and whitespace dropped, string and character literals one
 * token each, and each token's line in the user's text.
 */
#ifndef PAGANI_SOURCE_TOKENS_H
#define PAGANI_SOURCE_TOKENS_H

#include <stddef.h>

typedef enum pagani_token_kind {
    PAGANI_TOKEN_NAME,      /* an identifier or keyword */
    PAGANI_TOKEN_NUMBER,    /* a preprocessing number: 12, 0x1p-3, 1e+5 */
    PAGANI_TOKEN_LITERAL,   /* a string or character literal */
    PAGANI_TOKEN_PUNCT      /* an operator or punctuator: {, ->, <<= ... */
} pagani_token_kind;

typedef struct pagani_token {
    const char *text;       /* into the tokens' own copy of the source */
    size_t len;
    int line;               /* in the user's text, from 1 */
    int kind;               /* pagani_token_kind */
    int line_start;         /* nothing but blanks and comments before it
                               on its line: a # here starts a directive */
} pagani_token;

typedef struct pagani_tokens {
    pagani_token *token;
    int count;
    char *text;             /* the source with its line splices joined */
} pagani_tokens;

/* Splits source into tokens: 0, or -1 when memory ran out. Release with
 * pagani_tokens_free. */
int pagani_tokenize(const char *source, pagani_tokens *tokens);

void pagani_tokens_free(pagani_tokens *tokens);

/* Whether token t is exactly the text s. */
int pagani_token_is(const pagani_token *t, const char *s);

#endif /* PAGANI_SOURCE_TOKENS_H */
