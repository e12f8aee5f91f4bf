/*
 * source_tokens.c - integrand source as C preprocessing tokens
 * (source_tokens.h).
 */
#include <stdlib.h>
#include <string.h>
#include "jit/source_tokens.h"

/* Operators of two and three characters, longest first (digraphs
 * included: %: is #, <% %> are braces, <: :> brackets). */
static const char *const long_punct[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
    "%:", "<%", "%>", "<:", ":>"
};
#define N_LONG_PUNCT (sizeof long_punct / sizeof long_punct[0])

static int name_start(char c)
{
    return c == '_' || c == '$' || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The source without line splices, into out (as long as source), and the
 * line of each of its characters into lines. */
static void join_splices(const char *source, char *out, int *lines)
{
    int line = 1;
    size_t k = 0;
    for (const char *s = source; *s; s++) {
        if (s[0] == '\\' && (s[1] == '\n' || (s[1] == '\r' && s[2] == '\n'))) {
            s += s[1] == '\r' ? 2 : 1;
            line++;
            continue;
        }
        out[k] = *s;
        lines[k++] = line;
        if (*s == '\n') line++;
    }
    out[k] = '\0';
    lines[k] = line;
}

/* The end of the token starting at s (not a blank or comment). */
static const char *token_end(const char *s, int *kind)
{
    if (name_start(*s)) {
        *kind = PAGANI_TOKEN_NAME;
        while (name_start(*s) || digit(*s)) s++;
        if (*s == '"' || *s == '\'') return token_end(s, kind); /* L"x" */
        return s;
    }
    if (digit(*s) || (*s == '.' && digit(s[1]))) {
        *kind = PAGANI_TOKEN_NUMBER;
        for (s++; name_start(*s) || digit(*s) || *s == '.' ||
                  ((*s == '+' || *s == '-') && strchr("eEpP", s[-1]));
             s++)
            ;
        return s;
    }
    if (*s == '"' || *s == '\'') {
        char quote = *s++;
        *kind = PAGANI_TOKEN_LITERAL;
        while (*s && *s != quote && *s != '\n') {
            if (*s == '\\' && s[1]) s++;
            s++;
        }
        return *s == quote ? s + 1 : s;
    }
    *kind = PAGANI_TOKEN_PUNCT;
    for (size_t i = 0; i < N_LONG_PUNCT; i++) {
        size_t len = strlen(long_punct[i]);
        if (strncmp(s, long_punct[i], len) == 0) return s + len;
    }
    return s + 1;
}

int pagani_tokenize(const char *source, pagani_tokens *tokens)
{
    size_t len = strlen(source);
    int *lines = malloc((len + 1) * sizeof *lines), line_start = 1;
    const char *s;

    memset(tokens, 0, sizeof *tokens);
    tokens->text = malloc(len + 1);
    /* At most one token per character. */
    tokens->token = malloc((len + 1) * sizeof *tokens->token);
    if (!lines || !tokens->text || !tokens->token) {
        free(lines);
        pagani_tokens_free(tokens);
        return -1;
    }
    join_splices(source, tokens->text, lines);
    for (s = tokens->text; *s;) {
        pagani_token *t = &tokens->token[tokens->count];
        int kind;
        if (*s == '\n') {
            line_start = 1;
            s++;
        } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
                   *s == '\v') {
            s++;
        } else if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++)
                if (*s == '\n') line_start = 1;
            if (*s) s += 2;
        } else {
            const char *end = token_end(s, &kind);
            t->text = s;
            t->len = (size_t)(end - s);
            t->line = lines[s - tokens->text];
            t->kind = kind;
            t->line_start = line_start;
            line_start = 0;
            tokens->count++;
            s = end;
        }
    }
    free(lines);
    return 0;
}

void pagani_tokens_free(pagani_tokens *tokens)
{
    free(tokens->token);
    free(tokens->text);
    memset(tokens, 0, sizeof *tokens);
}

int pagani_token_is(const pagani_token *t, const char *s)
{
    return t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}
