/*
 * identity.h - fingerprints of what a computation is, so that its state
 * can be recognised in another call, process or machine: the QMC parts'
 * record (qmc_parts.c), the ranks of an MPI context agreeing on a call
 * (pagani_call_identity, internal.h), and the coming checkpoints
 * (DESIGN.md section 12).
 *
 * A fingerprint is the 64-bit FNV-1a hash of a canonical byte string:
 * integers as 8 little-endian bytes, doubles as their bit patterns, byte
 * blocks as their length then their bytes. So the same thing has the same
 * fingerprint in every process and on every machine, and two things that
 * differ have different ones but with a chance of about 2^-64 (FNV-1a
 * tells apart any two strings of one length that differ in one byte).
 * It detects accidents, another box or a damaged file, not forgery: it is
 * no signature.
 */
#ifndef PAGANI_IDENTITY_H
#define PAGANI_IDENTITY_H

#include <stddef.h>
#include "pagani.h"

typedef struct pagani_hash {
    unsigned long long state;
} pagani_hash;

/* An empty string's hash, to add to. */
pagani_hash pagani_hash_start(void);

/* Adds a 64-bit word (8 bytes, little-endian). */
void pagani_hash_word(pagani_hash *h, unsigned long long word);

/* Adds a double's bit pattern (so -0 and 0 differ, and NaNs by payload). */
void pagani_hash_double(pagani_hash *h, double v);

/* Adds `bytes` bytes of data, after their count. */
void pagani_hash_bytes(pagani_hash *h, const void *data, size_t bytes);

/* What an integrand computes, as far as can be known: its form (source
 * or host function, scalar or vector), n, ncomp and its source text. A
 * host function's code is not known (its address differs from process
 * to process): host functions of one form and shape have one identity.
 * The parameter block is apart (pagani_identity_block). */
unsigned long long pagani_identity_integrand(const pagani_integrand *f);

/* A block of bytes (a parameter block): its size and bytes. */
unsigned long long pagani_identity_block(const void *data, size_t bytes);

/* Adds a box of n axes: the bit patterns of lower[i] and upper[i]. */
void pagani_hash_box(pagani_hash *h, int n, const double *lower,
                     const double *upper);

/* The options that change a result of an n-dimensional integrand: every
 * field but the progress callback and its data, the break points and a
 * warm start's grid (vegas_grid_in) by their values (not where they are
 * stored). */
unsigned long long pagani_identity_options(const pagani_options *o, int n);

#endif /* PAGANI_IDENTITY_H */
