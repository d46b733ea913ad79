/*
 * sanitizer_options.c - AddressSanitizer's defaults for every fuzz target,
 * chosen so that a run of millions of inputs keeps a flat resident set
 * (docs/performance.md, "Memory").  ASAN_OPTIONS still wins: an option set
 * there (as ClusterFuzz sets its own) replaces the one below.
 *
 *   malloc_context_size=8   ASan keeps the stack of every malloc and free
 *                           in its stack depot, which never shrinks; with
 *                           the default 30 frames, the recursive walks of
 *                           the generator, the passes and the interpreter
 *                           made new stacks with every new program (290,000
 *                           stacks, 69 MB, after 100,000 inputs, still
 *                           growing).  Eight frames name the allocating
 *                           function and its callers well past any arena;
 *                           the stack of the faulting access itself is
 *                           always whole.
 *   quarantine_size_mb=64   freed blocks wait here before reuse (256 MB by
 *                           default); 64 MB still holds the frees of
 *                           hundreds of inputs, far more than a
 *                           use-after-free inside one input needs.
 *
 * Linked into every fuzz target (rs_fuzz_target in CMakeLists.txt); a
 * build without ASan never calls it.
 */
const char *__asan_default_options(void);

const char *__asan_default_options(void) {
  return "malloc_context_size=8:quarantine_size_mb=64";
}
