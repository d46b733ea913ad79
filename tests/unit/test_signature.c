/* Failure signatures (tools/signature.c, built into this test): the
 * oracle and pass of relaysmith reports, without the pass sequence or the
 * detail; the kind and top frames of sanitizer reports (runtime, libc and
 * allocator frames skipped, values left out); assertions, timeouts,
 * signals, exit codes; nothing for a clean run. */
#include <signal.h>

#include "test.h"
#include "tools/tool.h"

static const char *sig(const char *err, int status, bool timed_out) {
  static char out[TOOL_SIG_MAX];
  tool_signature(err, status, timed_out, out);
  return out;
}

static const char report[] =
    "relaysmith: policy default, passes: bad_fold_swap,dead_code\n"
    "\n==relaysmith== FAILURE\n"
    "pass:    bad_fold_swap (pass 1 of 2: bad_fold_swap dead_code)\n"
    "oracle:  result (the interpreter's result differs before and after the pass)\n"
    "detail:  at $: float32 -2 vs 2.5 (before: ok, after: ok)\n"
    "--- program before bad_fold_swap:\n...\n==relaysmith== end of report\n";

static const char typecheck[] = "\n==relaysmith== FAILURE\npass:    (none: type inference)\n"
                                "oracle:  type (inference fails once annotations are erased)\n"
                                "detail:  error: ...\n";

/* reject_fuzzer's: the subject (an operator, or a defect kind) names the
 * bucket; the detail, the defect and the checker's verdict do not. */
static const char reject[] =
    "\n==relaysmith== FAILURE\npass:    (none: rejection, operator sum)\n"
    "oracle:  soundness (a program the checker accepts hits a type fault in the interpreter)\n"
    "detail:  sum: axis 1 out of range for rank 1\n"
    "defect:  attr_axis: attribute axis of sum: [0] -> [1] in @main\n"
    "checker: accepted\n"
    "--- program with its defect:\n...\n==relaysmith== end of report\n";

static const char asan[] =
    "=================================================================\n"
    "==15640==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000014 at pc "
    "0x55c6331c3ee1 bp 0x7fff03bef270 sp 0x7fff03bef268\n"
    "READ of size 4 at 0x602000000014 thread T0\n"
    "    #0 0x55c6331c3ee0 in use /tmp/rw/uaf.c:3:52\n"
    "    #1 0x55c6331c3f05 in mid /tmp/rw/uaf.c:4:52\n"
    "    #2 0x55c6331c3f79 in main /tmp/rw/uaf.c:8:39\n"
    "    #3 0x7f869906f249 in __libc_start_call_main "
    "csu/../sysdeps/nptl/libc_start_call_main.h:58\n"
    "\n"
    "freed by thread T0 here:\n"
    "    #0 0x55c633188ea2 in free (/tmp/rw/uaf+0xa2ea2)\n"
    "    #1 0x55c6331c3f71 in main /tmp/rw/uaf.c:8:23\n";

static const char ubsan[] =
    "uaf.c:5:53: runtime error: signed integer overflow: 2 + 2147483647 cannot be represented in "
    "type 'int'\n"
    "    #0 0x556a22c7cf4e in ovf /tmp/rw/uaf.c:5:53\n"
    "    #1 0x556a22c7cf5a in main /tmp/rw/uaf.c:7:24\n"
    "    #2 0x7f593c8c7249 in __libc_start_call_main "
    "csu/../sysdeps/nptl/libc_start_call_main.h:58\n"
    "\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior uaf.c:5:53 in \n";

static const char lsan[] = "==77==ERROR: LeakSanitizer: detected memory leaks\n\n"
                           "Direct leak of 8 byte(s) in 1 object(s) allocated from:\n"
                           "    #0 0x4c2a9d in malloc (/x/relaysmith+0x4c2a9d)\n"
                           "    #1 0x5a1b2c in __interceptor_strdup (/x/relaysmith+0x5a1b2c)\n"
                           "    #2 0x5a1b2c in ir_clone compiler/ir/ir.c:10:3\n"
                           "    #3 0x5a1c00 in pass_inline compiler/passes/inline.c:99:7\n"
                           "    #4 0x5a1d00 in oracle_run harnesses/oracle.c:280:9\n"
                           "    #5 0x5a1e00 in child tools/reduce.c:120:5\n";

int main(void) {
  CHECK_STR(sig(report, SIGABRT, false), "result (the interpreter's result differs before and "
                                         "after the pass) in pass bad_fold_swap");
  CHECK_STR(sig(typecheck, SIGABRT, false),
            "type (inference fails once annotations are erased), type inference");
  CHECK_STR(sig(reject, SIGABRT, false), "soundness (a program the checker accepts hits a type "
                                         "fault in the interpreter), rejection, operator sum");
  CHECK_STR(sig(asan, 1 << 8, false), "AddressSanitizer: heap-use-after-free at use < mid < main");
  CHECK_STR(sig(ubsan, 1 << 8, false),
            "UndefinedBehaviorSanitizer: signed integer overflow at ovf < main");
  CHECK_STR(sig(lsan, 1 << 8, false),
            "LeakSanitizer: detected memory leaks at ir_clone < pass_inline < oracle_run");
  CHECK_STR(sig("relaysmith: x.c:12: f: Assertion `n > 0' failed.\n", SIGABRT, false),
            "assertion `n > 0' failed.");
  CHECK_STR(sig("", SIGKILL, true), "timeout");
  CHECK_STR(sig("", SIGSEGV, false), "deadly signal Segmentation fault");
  CHECK_STR(sig("", 3 << 8, false), "exit status 3");
  CHECK_STR(sig("relaysmith: policy default\n", 0, false), "");
  /* The same bug with other values has the same signature. */
  char a[TOOL_SIG_MAX];
  tool_signature(report, SIGABRT, false, a);
  CHECK_STR(sig("==relaysmith== FAILURE\npass:    bad_fold_swap (pass 1 of 1: bad_fold_swap)\n"
                "oracle:  result (the interpreter's result differs before and after the pass)\n"
                "detail:  at $[3]: float32 1 vs 0\n",
                SIGABRT, false),
            a);
  return test_summary();
}
