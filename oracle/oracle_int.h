/*
 * oracle_int.h - what oracle.c shares with the other files of the
 * oracle library.
 */
#ifndef RS_ORACLE_INT_H
#define RS_ORACLE_INT_H

#include "oracle.h"

/* ORACLE_KERNEL (kernel.c): one operator call drawn from in, its kernel
 * against the naive one. */
bool oracle_check_kernel(const OracleConfig *c, const OracleInput *in, Verdict *v);
/* The call drawn from in as @main (no @main when the sampler declines). */
Module *oracle_kernel_program(const OracleInput *in);

#endif
