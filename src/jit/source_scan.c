/*
 * source_scan.c - the checks made on integrand source before it compiles
 * or runs (source_scan.h).
 *
 * The tokens are read once, left to right, with a stack of scopes: one
 * per block ({ }), one per for statement (its header and its body). Each
 * scope holds the names it declares among those the environment gives
 * (x, p, params, f) and where it stands in a declaration: a statement
 * that starts with a type (a keyword, a typedef name of the source's, or
 * a common one like size_t) is read as specifiers, then declarators, each
 * with its name (declared where its declarator ends, as C says) and its
 * initializer. A name is the environment's when no scope on the stack
 * declares it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "jit/source_scan.h"
#include "jit/source_tokens.h"

/* The environment's names, as bits. */
enum { NAME_X = 1, NAME_P = 2, NAME_PARAMS = 4, NAME_F = 8 };

/* Where a scope stands in a declaration. */
enum { IN_STATEMENT, IN_SPECIFIERS, IN_DECLARATOR, IN_INITIALIZER };

/* The kinds of scope. */
enum { BLOCK, FOR_HEADER, FOR_BODY };

typedef struct scope {
    int kind;
    int declared;           /* NAME_ bits this scope declares */
    int state;              /* IN_ */
    int statement_start;    /* the next token starts a statement */
    int depth;              /* ( and [ open in the declaration */
    int brackets;           /* [ open in the declarator: their names are
                               read, not declared */
    int header_parens;      /* FOR_HEADER: ( open since `for` */
    int type_seen;          /* a type specifier was read */
    int is_typedef;         /* the declaration is a typedef */
    int name_seen;          /* the declarator's name was read ... */
    int pending;            /* ... and its NAME_ bit, declared at its end */
} scope;

#define MAX_SCOPES 256
#define MAX_TYPEDEFS 64

typedef struct scan {
    const pagani_token *token;
    int count, at;          /* the tokens and the one being read */
    scope scopes[MAX_SCOPES];
    int depth;              /* scopes on the stack, >= 1 */
    int lost;               /* the scopes are not known (too deep, or the
                               source closed the wrapper's block): no
                               name is local */
    const pagani_token *typedefs[MAX_TYPEDEFS];
    int ntypedefs;
    int n, ncomp;
    pagani_source_facts *facts;
} scan;

/* Keywords that start or continue declaration specifiers. */
static const char *const specifier_words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed",
    "unsigned", "_Bool", "_Complex", "__int128", "struct", "union", "enum",
    "const", "volatile", "restrict", "__restrict", "__restrict__", "static",
    "register", "auto", "extern", "typedef", "inline", "__inline",
    "__inline__", "_Thread_local", "__thread", "__extension__", "_Noreturn",
    "_Alignas", "_Atomic", "__attribute__", "__attribute", "typeof",
    "__typeof", "__typeof__", "__auto_type", "__const", "__volatile__",
    "size_t", "ptrdiff_t", "double_t", "float_t", "int8_t", "int16_t",
    "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "intptr_t", "uintptr_t", "intmax_t", "uintmax_t"
};
/* Those of them that name no type. */
static const char *const qualifier_words[] = {
    "const", "volatile", "restrict", "__restrict", "__restrict__", "static",
    "register", "auto", "extern", "typedef", "inline", "__inline",
    "__inline__", "_Thread_local", "__thread", "__extension__", "_Noreturn",
    "_Alignas", "__attribute__", "__attribute", "__const", "__volatile__"
};
/* Those followed by a parenthesized argument. */
static const char *const argument_words[] = {
    "_Alignas", "_Atomic", "__attribute__", "__attribute", "typeof",
    "__typeof", "__typeof__"
};
/* Statements that cannot stand in an expression. */
static const char *const statement_words[] = {
    "if", "for", "while", "do", "switch", "goto", "break", "continue"
};
/* Directives that read a file. */
static const char *const file_directives[] = {
    "include", "include_next", "import", "embed"
};
#define COUNT(a) (int)(sizeof a / sizeof a[0])

static int one_of(const pagani_token *t, const char *const *words, int count)
{
    for (int i = 0; i < count; i++)
        if (pagani_token_is(t, words[i])) return 1;
    return 0;
}

static int is_punct(const pagani_token *t, const char *s)
{
    return t && t->kind == PAGANI_TOKEN_PUNCT && pagani_token_is(t, s);
}

/* Token `at + ahead`, or NULL past the end. */
static const pagani_token *peek(const scan *sc, int ahead)
{
    int i = sc->at + ahead;
    return i >= 0 && i < sc->count ? &sc->token[i] : NULL;
}

static int is_open_brace(const pagani_token *t)
{
    return is_punct(t, "{") || is_punct(t, "<%");
}

static int is_close_brace(const pagani_token *t)
{
    return is_punct(t, "}") || is_punct(t, "%>");
}

static int is_open(const pagani_token *t)
{
    return is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "<:");
}

static int is_close(const pagani_token *t)
{
    return is_punct(t, ")") || is_punct(t, "]") || is_punct(t, ":>");
}

/* The NAME_ bit of an environment name t, 0 for any other token. */
static int env_name(const scan *sc, const pagani_token *t)
{
    if (t->kind != PAGANI_TOKEN_NAME) return 0;
    if (pagani_token_is(t, "x")) return NAME_X;
    if (pagani_token_is(t, "p")) return NAME_P;
    if (pagani_token_is(t, "params")) return NAME_PARAMS;
    if (sc->ncomp > 0 && pagani_token_is(t, "f")) return NAME_F;
    return 0;
}

static int is_typedef_name(const scan *sc, const pagani_token *t)
{
    for (int i = 0; i < sc->ntypedefs; i++)
        if (t->len == sc->typedefs[i]->len &&
            memcmp(t->text, sc->typedefs[i]->text, t->len) == 0)
            return 1;
    return 0;
}

static scope *top(scan *sc)
{
    return &sc->scopes[sc->depth - 1];
}

static void push(scan *sc, int kind)
{
    scope *s;
    if (sc->depth == MAX_SCOPES) {
        sc->lost = 1;
        return;
    }
    s = &sc->scopes[sc->depth++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->statement_start = 1;
}

static void pop(scan *sc)
{
    if (sc->depth > 1) sc->depth--;
}

/* Whether the environment's name `bit` is hidden by a declaration. */
static int hidden(const scan *sc, int bit)
{
    if (sc->lost) return 0;
    for (int i = 0; i < sc->depth; i++)
        if (sc->scopes[i].declared & bit) return 1;
    return 0;
}

/* When the tokens after the current one are `[ K ]`, K an integer
 * literal, maybe negative: 1 with K in *index (clamped to LLONG_MAX). */
static int literal_index(const scan *sc, long long *index)
{
    const pagani_token *t = peek(sc, 2);
    int negative = is_punct(t, "-");
    unsigned long long k;
    char digits[64];
    if (negative) t = peek(sc, 3);
    if (!is_punct(peek(sc, 1), "[") && !is_punct(peek(sc, 1), "<:"))
        return 0;
    if (!t || t->kind != PAGANI_TOKEN_NUMBER || t->len >= sizeof digits)
        return 0;
    if (!is_punct(peek(sc, negative ? 4 : 3), "]") &&
        !is_punct(peek(sc, negative ? 4 : 3), ":>"))
        return 0;
    memcpy(digits, t->text, t->len);
    digits[t->len] = '\0';
    if (strpbrk(digits, ".eEpP") && !strpbrk(digits, "xX")) return 0;
    k = strtoull(digits, NULL, 0);
    *index = k > LLONG_MAX ? LLONG_MAX : (long long)k;
    if (negative) *index = -*index;
    return 1;
}

/* The current token reads name `bit`: the facts, when it is the
 * environment's. */
static void note_use(scan *sc, int bit)
{
    pagani_source_facts *facts = sc->facts;
    const pagani_token *t = peek(sc, 0), *before = peek(sc, -1);
    long long k;
    int line = t->line;

    if (!bit || is_punct(before, ".") || is_punct(before, "->") ||
        hidden(sc, bit))
        return;
    if ((bit & (NAME_P | NAME_PARAMS)) && !facts->params_line)
        facts->params_line = line;
    if (!literal_index(sc, &k)) return;
    if (bit == NAME_X && (k < 0 || k >= sc->n) && !facts->bad_x_line) {
        facts->bad_x_line = line;
        facts->bad_x = k;
    }
    if (bit == NAME_F && (k < 0 || k >= sc->ncomp) && !facts->bad_f_line) {
        facts->bad_f_line = line;
        facts->bad_f = k;
    }
    if (bit == NAME_P && (!facts->p_line ||
                          (facts->p_index >= 0 &&
                           (k < 0 || k > facts->p_index)))) {
        facts->p_line = line;
        facts->p_index = k;
    }
}

/* Skips the parenthesized group that starts after the current token
 * (an attribute, typeof, a prototype's parameters): its names are not
 * read at run time. */
static void skip_group(scan *sc)
{
    int open = 0;
    if (!is_punct(peek(sc, 1), "(")) return;
    do {
        sc->at++;
        if (is_punct(peek(sc, 0), "(")) open++;
        if (is_punct(peek(sc, 0), ")")) open--;
    } while (open > 0 && sc->at + 1 < sc->count);
}

/* Whether the directive named by the current token reads a file. */
static int reads_file(const scan *sc)
{
    const pagani_token *gcc = peek(sc, 1), *what = peek(sc, 2);
    return one_of(peek(sc, 0), file_directives, COUNT(file_directives)) ||
           (pagani_token_is(peek(sc, 0), "pragma") && gcc && what &&
            !gcc->line_start && !what->line_start &&
            pagani_token_is(gcc, "GCC") && pagani_token_is(what, "dependency"));
}

/* A directive (the current token is its #): a file it reads is noted;
 * the rest of its line is read for uses only (a macro's body may read
 * p), past the macro's own name. */
static void directive(scan *sc)
{
    const pagani_token *name = peek(sc, 1), *next;
    if (!name || name->line_start) return; /* the null directive */
    sc->at++;
    if (reads_file(sc) && !sc->facts->include_line)
        sc->facts->include_line = name->line;
    next = peek(sc, 1);
    if (next && !next->line_start &&
        (pagani_token_is(name, "define") || pagani_token_is(name, "undef") ||
         pagani_token_is(name, "ifdef") || pagani_token_is(name, "ifndef")))
        sc->at++;
    for (sc->at++; sc->at < sc->count && !peek(sc, 0)->line_start; sc->at++)
        note_use(sc, env_name(sc, peek(sc, 0)));
    sc->at--;
}

/* The end of a statement in scope s: a for statement whose body it was
 * ends with it. */
static void statement_end(scan *sc)
{
    top(sc)->statement_start = 1;
    while (sc->depth > 1 && top(sc)->kind == FOR_BODY) {
        pop(sc);
        top(sc)->statement_start = 1;
    }
}

/* The end of a declarator: its name, if one of the environment's, is
 * declared from here on; a typedef's name becomes a type. */
static void declarator_end(scope *s)
{
    s->declared |= s->pending;
    s->pending = 0;
    s->name_seen = 0;
    s->depth = 0;
    s->brackets = 0;
}

/* Reads a token of a declaration in scope s. */
static void declaration_token(scan *sc, scope *s, const pagani_token *t)
{
    if (s->state == IN_SPECIFIERS) {
        int type_word = t->kind == PAGANI_TOKEN_NAME &&
            ((one_of(t, specifier_words, COUNT(specifier_words)) &&
              !one_of(t, qualifier_words, COUNT(qualifier_words))) ||
             (!s->type_seen && is_typedef_name(sc, t)));
        if (pagani_token_is(t, "typedef")) s->is_typedef = 1;
        if (one_of(t, argument_words, COUNT(argument_words))) skip_group(sc);
        if (type_word || one_of(t, qualifier_words, COUNT(qualifier_words))) {
            s->type_seen |= type_word;
            /* a tag after struct, union or enum names no variable */
            if ((pagani_token_is(t, "struct") || pagani_token_is(t, "union")
                 || pagani_token_is(t, "enum")) && peek(sc, 1) &&
                peek(sc, 1)->kind == PAGANI_TOKEN_NAME)
                sc->at++;
            return;
        }
        s->state = IN_DECLARATOR;
    }
    if (s->state == IN_DECLARATOR) {
        if (is_punct(t, "(") && s->name_seen && s->depth == 0) {
            sc->at--; /* skips the parameters of a prototype */
            skip_group(sc);
        } else if (is_open(t)) {
            s->depth++;
            s->brackets += !is_punct(t, "(");
        } else if (is_close(t)) {
            s->depth -= s->depth > 0;
            s->brackets -= !is_punct(t, ")") && s->brackets > 0;
        } else if (t->kind == PAGANI_TOKEN_NAME && s->brackets > 0) {
            note_use(sc, env_name(sc, t));
        } else if (t->kind == PAGANI_TOKEN_NAME &&
                   one_of(t, argument_words, COUNT(argument_words))) {
            skip_group(sc);
        } else if (t->kind == PAGANI_TOKEN_NAME && !s->name_seen &&
                   !one_of(t, qualifier_words, COUNT(qualifier_words))) {
            s->name_seen = 1;
            s->pending = env_name(sc, t);
            if (s->is_typedef && sc->ntypedefs < MAX_TYPEDEFS)
                sc->typedefs[sc->ntypedefs++] = t;
        } else if (s->depth == 0 && is_punct(t, "=")) {
            declarator_end(s);
            s->state = IN_INITIALIZER;
        } else if (s->depth == 0 && is_punct(t, ",")) {
            declarator_end(s);
        } else if (s->depth == 0 && is_punct(t, ";")) {
            declarator_end(s);
            s->state = IN_STATEMENT;
            statement_end(sc);
        }
        return;
    }
    /* IN_INITIALIZER */
    if (is_open(t)) {
        s->depth++;
    } else if (is_close(t)) {
        s->depth -= s->depth > 0;
    } else if (s->depth == 0 && is_punct(t, ",")) {
        s->state = IN_DECLARATOR;
    } else if (s->depth == 0 && is_punct(t, ";")) {
        s->state = IN_STATEMENT;
        statement_end(sc);
    } else {
        note_use(sc, env_name(sc, t));
    }
}

/* Whether t, at the start of a statement, starts a declaration. */
static int starts_declaration(const scan *sc, const pagani_token *t)
{
    return t->kind == PAGANI_TOKEN_NAME &&
           (one_of(t, specifier_words, COUNT(specifier_words)) ||
            is_typedef_name(sc, t));
}

/* Reads the current token. */
static void step(scan *sc)
{
    const pagani_token *t = peek(sc, 0);
    scope *s = top(sc);
    int start = s->statement_start, outermost = sc->depth == 1;

    if ((is_punct(t, "#") || is_punct(t, "%:")) && t->line_start) {
        directive(sc);
        return;
    }
    if (t->kind == PAGANI_TOKEN_NAME && pagani_token_is(t, "return"))
        sc->facts->is_body = 1;
    s->statement_start = 0;
    if (is_open_brace(t)) {
        if (s->state == IN_DECLARATOR && s->depth == 0 && s->name_seen) {
            declarator_end(s); /* a nested function's body */
            s->state = IN_STATEMENT;
        }
        push(sc, BLOCK);
        return;
    }
    if (is_close_brace(t)) {
        /* One too many closes the wrapper's block: after it, the scan
         * no longer knows the scopes. */
        sc->lost |= sc->depth == 1;
        pop(sc);
        if (top(sc)->state == IN_STATEMENT) statement_end(sc);
        return;
    }
    if (start && s->state == IN_STATEMENT && starts_declaration(sc, t)) {
        s->state = IN_SPECIFIERS;
        s->type_seen = s->is_typedef = 0;
        if (outermost && !sc->facts->statement_line)
            sc->facts->statement_line = t->line;
    }
    if (start && outermost && t->kind == PAGANI_TOKEN_NAME &&
        one_of(t, statement_words, COUNT(statement_words)) &&
        !sc->facts->statement_line)
        sc->facts->statement_line = t->line;
    if (s->state != IN_STATEMENT) {
        declaration_token(sc, s, t);
    } else if (s->kind == FOR_HEADER && is_punct(t, "(")) {
        s->header_parens++;
    } else if (s->kind == FOR_HEADER && is_punct(t, ")") &&
               --s->header_parens == 0) {
        s->kind = FOR_BODY; /* its names stay declared for the body */
    } else if (is_punct(t, ";")) {
        if (outermost && sc->at + 1 < sc->count && !sc->facts->statement_line)
            sc->facts->statement_line = peek(sc, 1)->line;
        statement_end(sc);
        if (s->kind == FOR_HEADER) s->statement_start = 1;
    } else if (pagani_token_is(t, "for") && is_punct(peek(sc, 1), "(")) {
        sc->at++;
        push(sc, FOR_HEADER);
        top(sc)->header_parens = 1;
    } else if (t->kind == PAGANI_TOKEN_NAME && start &&
               is_punct(peek(sc, 1), ":") && env_name(sc, t)) {
        return; /* a label */
    } else {
        note_use(sc, env_name(sc, t));
    }
}

int pagani_source_scan(const char *source, int n, int ncomp,
                       pagani_source_facts *facts)
{
    pagani_tokens tokens;
    scan *sc;

    memset(facts, 0, sizeof *facts);
    if (!(sc = calloc(1, sizeof *sc))) return -1;
    if (pagani_tokenize(source, &tokens) != 0) {
        free(sc);
        return -1;
    }
    sc->token = tokens.token;
    sc->count = tokens.count;
    sc->n = n;
    sc->ncomp = ncomp;
    sc->facts = facts;
    push(sc, BLOCK);
    for (sc->at = 0; sc->at < sc->count; sc->at++) step(sc);
    if (facts->is_body || ncomp > 0) facts->statement_line = 0;
    pagani_tokens_free(&tokens);
    free(sc);
    return 0;
}
