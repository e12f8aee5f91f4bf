/*
 * mpi_agree.c - the agreement of the ranks on a code (mpi_layer.h): the
 * one collective step that every other step of the layer starts with, so
 * that an error on one rank reaches every rank and no rank waits for a
 * message that will not come; and at the start of a call's work, on what
 * the call computes, so that ranks given different arguments fail
 * together instead of computing different things or waiting.
 */
#include <stdio.h>
#include <string.h>
#include "mpi/mpi_layer.h"

int mpi_check(pagani_context *ctx, int mpi_rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (mpi_rc == MPI_SUCCESS) return PAGANI_OK;
    if (MPI_Error_string(mpi_rc, text, &len) != MPI_SUCCESS) len = 0;
    text[len] = '\0';
    if (!ctx) return PAGANI_ERR_SYSTEM;
    return pagani_fail(ctx, PAGANI_ERR_SYSTEM, "MPI: %s failed: %s", what,
                       len ? text : "unknown error");
}

/* The longest message passed on (longer ones are cut). */
#define MESSAGE_MAX 4096

/* The failing rank `from` sends its code and message to every rank; each
 * puts "rank R: message" into ctx unless every rank failed (then each
 * keeps its own, the same failure). Returns the code. */
static int spread_failure(pagani_context *ctx, mpi_layer *L, int rc, int from,
                          int all_failed)
{
    char text[MESSAGE_MAX];
    int head[2] = {rc, 0}, mpi_rc;

    if (L->rank == from) {
        size_t len = strlen(ctx ? pagani_context_message(ctx) : "");
        if (len > MESSAGE_MAX - 1) len = MESSAGE_MAX - 1;
        memcpy(text, ctx ? pagani_context_message(ctx) : "", len);
        head[1] = (int)len;
    }
    mpi_rc = MPI_Bcast(head, 2, MPI_INT, from, L->comm);
    if (mpi_rc == MPI_SUCCESS)
        mpi_rc = MPI_Bcast(text, head[1], MPI_CHAR, from, L->comm);
    if (mpi_rc != MPI_SUCCESS) return mpi_check(ctx, mpi_rc, "MPI_Bcast");
    text[head[1]] = '\0';
    if (ctx && !all_failed)
        pagani_fail(ctx, head[0], "rank %d: %s", from, text);
    return head[0];
}

int mpi_agree(pagani_context *ctx, mpi_layer *L, int rc, enum mpi_step step)
{
    /* the lowest failing rank (size: none), whether all failed, and the
     * step as its minimum and minus its maximum, in one MPI_MIN */
    int mine[4] = {rc != PAGANI_OK ? L->rank : L->size, rc != PAGANI_OK,
                   (int)step, -(int)step};
    int all[4], mpi_rc;
    double start = MPI_Wtime();

    mpi_rc = MPI_Allreduce(mine, all, 4, MPI_INT, MPI_MIN, L->comm);
    L->mpi_seconds += MPI_Wtime() - start;
    if (mpi_rc != MPI_SUCCESS) return mpi_check(ctx, mpi_rc, "MPI_Allreduce");
    /* ranks that all fail a checkpoint step fail each in its own words
     * (each reads its own file): one message, the lowest rank's */
    if (all[0] < L->size)
        rc = spread_failure(ctx, L, rc, all[0],
                            all[1] && step != MPI_STEP_CHECKPOINT);
    else if (all[2] != -all[3])
        rc = ctx ? pagani_fail(ctx, PAGANI_ERR_SYSTEM, "MPI: the ranks are "
                               "at different collective calls (steps %d and "
                               "%d): every rank must make the same calls "
                               "with the same arguments", all[2], -all[3])
                 : PAGANI_ERR_SYSTEM;
    /* a stop request is no failure: the drivers end their integrals on
     * it, and the call ends with an agreement of its own */
    if (rc != PAGANI_OK && rc != PAGANI_STOP_REQUESTED && step != MPI_STEP_CALL_END)
        L->agreed = rc;
    return rc;
}

/* Appends field i's name to a list of `have` names in text. */
static void name_field(char *text, size_t size, int have, int i)
{
    size_t len = strlen(text);
    snprintf(text + len, size - len, "%s%s", have ? ", " : "",
             pagani_call_field_name(i));
}

int mpi_call_start(pagani_context *ctx, const pagani_call_identity *call)
{
    mpi_layer *L = mpi_layer_of(ctx);
    /* each field and its complement: one MPI_MIN gives min and max */
    unsigned long long mine[2 * PAGANI_CALL_FIELDS];
    unsigned long long all[2 * PAGANI_CALL_FIELDS];
    char differ[512] = "";
    int rc = mpi_agree(ctx, L, PAGANI_OK, MPI_STEP_CALL_START), mpi_rc, n = 0;
    double start;

    if (rc != PAGANI_OK) return rc;
    for (int i = 0; i < PAGANI_CALL_FIELDS; i++) {
        mine[2 * i] = call->field[i];
        mine[2 * i + 1] = ~call->field[i];
    }
    start = MPI_Wtime();
    mpi_rc = MPI_Allreduce(mine, all, 2 * PAGANI_CALL_FIELDS,
                           MPI_UNSIGNED_LONG_LONG, MPI_MIN, L->comm);
    L->mpi_seconds += MPI_Wtime() - start;
    if (mpi_rc != MPI_SUCCESS)
        return L->agreed = mpi_check(ctx, mpi_rc, "MPI_Allreduce");
    for (int i = 0; i < PAGANI_CALL_FIELDS; i++)
        if (all[2 * i] != ~all[2 * i + 1])
            name_field(differ, sizeof differ, n++, i);
    if (!n) return PAGANI_OK;
    return L->agreed = pagani_fail(ctx, PAGANI_ERR_OPTION, "the ranks' "
                                   "calls differ in %s: every rank must "
                                   "make the same call with the same "
                                   "arguments (pagani_mpi.h)", differ);
}
