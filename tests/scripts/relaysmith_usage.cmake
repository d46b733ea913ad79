# cmake -DEXE=<relaysmith> -DOUT=<scratch dir> -P relaysmith_usage.cmake
# Exit codes and output of the relaysmith subcommands.

function(run expect_rc)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "relaysmith ${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}\n${err}")
  endif()
  set(OUT_TEXT "${out}" PARENT_SCOPE)
  set(ERR_TEXT "${err}" PARENT_SCOPE)
endfunction()

# expect(VAR REGEX) - fail unless the text in VAR matches REGEX.
function(expect var regex)
  if(NOT "${${var}}" MATCHES "${regex}")
    message(FATAL_ERROR "expected /${regex}/ in ${var}:\n${${var}}")
  endif()
endfunction()

# Help texts.
run(0 --help)
foreach(cmd gen decode stats reduce triage)
  run(0 ${cmd} --help)
  string(FIND "${OUT_TEXT}" "usage: relaysmith ${cmd}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "relaysmith ${cmd} --help: no usage line\n${OUT_TEXT}")
  endif()
endforeach()

# Bad usage: exit 2 with a message.
run(2)
run(2 frobnicate)
run(2 gen --count)
run(2 gen --count -3)
run(2 gen --seed x)
run(2 gen --bogus)
run(2 gen --policy nonesuch)
run(2 decode)
run(2 decode a b)
run(2 decode --policy)
run(2 reduce)
run(2 reduce a b)
run(2 reduce --target nonesuch x)
run(2 reduce --passes=nonesuch x)
run(2 reduce --timeout)
run(2 reduce --reduce x)
run(2 triage)
run(2 triage --bogus x)
run(2 triage --target typecheck_fuzzer --passes=inline x)
run(2 stats --count abc)
run(2 stats --policy nonesuch)
string(FIND "${ERR_TEXT}" "unknown policy" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no 'unknown policy' message: ${ERR_TEXT}")
endif()

# gen prints programs, deterministically for a seed.
run(0 gen --seed 5 --count 3)
set(first "${OUT_TEXT}")
run(0 gen --seed 5 --count 3)
if(NOT first STREQUAL OUT_TEXT)
  message(FATAL_ERROR "relaysmith gen is not deterministic")
endif()
string(FIND "${first}" "def @main" at)
if(at EQUAL -1)
  message(FATAL_ERROR "relaysmith gen printed no @main:\n${first}")
endif()

# gen --save writes the byte strings; decode prints the same program.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
run(0 gen --seed 9 --count 1 --size 300 --save ${OUT})
string(REGEX REPLACE "^// [^\n]*\n" "" generated "${OUT_TEXT}")
run(0 decode ${OUT}/gen-9-0.bin)
if(NOT "${OUT_TEXT}\n" STREQUAL "${generated}")
  message(FATAL_ERROR "decode differs from gen:\n${OUT_TEXT}\n---\n${generated}")
endif()
run(0 decode --spans ${OUT}/gen-9-0.bin)
string(FIND "${OUT_TEXT}" "spans: [start, end)" at)
if(at EQUAL -1)
  message(FATAL_ERROR "decode --spans printed no spans:\n${OUT_TEXT}")
endif()
run(1 decode ${OUT}/missing.bin)

# The empty input decodes to the minimal program.
file(WRITE ${OUT}/empty.bin "")
run(0 decode ${OUT}/empty.bin)
string(FIND "${OUT_TEXT}" "def @main() -> float32" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the empty input does not decode to @main() -> float32:\n${OUT_TEXT}")
endif()

# reduce: an input that does not fail is said so, exit 1; triage counts it
# as not failing.
file(WRITE ${OUT}/zero.bin "")
run(1 reduce --passes=fold_constant ${OUT}/zero.bin -o ${OUT}/zero.min)
string(FIND "${ERR_TEXT}" "does not fail" at)
if(at EQUAL -1)
  message(FATAL_ERROR "reduce of a passing input: no 'does not fail':\n${ERR_TEXT}")
endif()
run(0 triage --target typecheck_fuzzer ${OUT}/zero.bin)
if(NOT OUT_TEXT MATCHES "^1 files, 0 buckets, 1 not failing")
  message(FATAL_ERROR "triage of a passing input:\n${OUT_TEXT}")
endif()
run(0 decode --count ${OUT}/zero.bin)
if(NOT OUT_TEXT MATCHES "^[0-9]+\n$")
  message(FATAL_ERROR "decode --count printed:\n${OUT_TEXT}")
endif()

# run: a file that is Relay text is parsed, whatever its name (a header, a
# .relay name, or UTF-8 with def/fn/type), and a parse error is reported at
# its position, exit 1; only --bytes decodes it as a choice stream.
set(header "#[version = \"0.0.5\"]\n")
file(WRITE ${OUT}/bad.txt "${header}def @main() -> float32 {\n  1f +\n}\n")
run(1 run ${OUT}/bad.txt)
expect(ERR_TEXT "bad.txt:4:1: error: expected an expression, found `}`")
file(WRITE ${OUT}/bad.relay "def @main() { (1f, }")
run(1 run ${OUT}/bad.relay)
expect(ERR_TEXT "bad.relay:1:20: error: expected an expression")
file(WRITE ${OUT}/bad.dat "\n\ndef @main() -> float32 { %y }\n")
run(1 run ${OUT}/bad.dat)
expect(ERR_TEXT "bad.dat:3:26: error: undefined variable `%y`")
run(0 run --bytes ${OUT}/bad.dat)
expect(OUT_TEXT "// result before: ")
# Not text: decoded; --text parses it anyway.
file(WRITE ${OUT}/plain.dat "hello")
run(0 run ${OUT}/plain.dat)
run(1 run --text ${OUT}/plain.dat)
expect(ERR_TEXT "plain.dat:1:1: error: unknown operator or constructor `hello`")
run(0 run --help)
foreach(opt --passes= --print-after= --policy --seed --text --bytes)
  expect(OUT_TEXT "\n  ${opt}")
endforeach()

# run: a module without @main is checked and its passes run; nothing is
# evaluated, and it says so.
file(WRITE ${OUT}/nomain.relay "${header}def @f(%x: float32) -> float32 {\n  %x + 0f\n}\n")
run(0 run --passes=fold_constant,dead_code,to_anf ${OUT}/nomain.relay)
expect(OUT_TEXT "// after to_anf\n.*def @f\\(%x: float32\\)")
expect(OUT_TEXT "// no @main: nothing was evaluated\n$")
run(0 run --text ${OUT}/nomain.relay)
expect(OUT_TEXT "^// program\n")

# triage: an empty directory is 0 files; a missing one is an error.
file(MAKE_DIRECTORY ${OUT}/empty)
run(0 triage ${OUT}/empty)
expect(OUT_TEXT "^0 files, 0 buckets, 0 not failing\n$")
run(1 triage ${OUT}/missing)
expect(ERR_TEXT "missing: No such file or directory")

# decode --spans: the variables in scope are named as the program prints
# them (%x1 and %x2, not both %x).
run(0 gen --seed 5 --count 1 --size 300 --save ${OUT})
run(0 decode --spans ${OUT}/gen-5-0.bin)
string(FIND "${OUT_TEXT}" "\n// " at)
string(SUBSTRING "${OUT_TEXT}" 0 ${at} program)
string(SUBSTRING "${OUT_TEXT}" ${at} -1 spans)
string(REGEX MATCHALL "{[^}\n]*}" scopes "${spans}")
string(REGEX MATCHALL "%[A-Za-z_][A-Za-z0-9_]*" names "${scopes}")
list(REMOVE_DUPLICATES names)
if(NOT names MATCHES "%[a-z]+[0-9]+(;|$)")
  message(FATAL_ERROR "decode --spans: no numbered name (%x2) in the scopes (${names}):\n${OUT_TEXT}")
endif()
foreach(n ${names})
  if(NOT program MATCHES "${n}[^A-Za-z0-9_]")
    message(FATAL_ERROR "decode --spans names ${n}, which the program does not have:\n${OUT_TEXT}")
  endif()
endforeach()

# reduce: an input that passes with the passes its header chooses says
# that a crash found with -passes= or -policy= needs those flags.
run(1 reduce ${OUT}/zero.bin -o ${OUT}/zero.min)
expect(ERR_TEXT "does not fail on pass_fuzzer \\(policy mix, passes: chosen by each input's header\\)")
expect(ERR_TEXT "give them as --passes= or --policy=")

# run: text that parses but does not type check (TVM's test_ref, its ref
# shared through a graph binding, writing an int32) is reported with its
# position, exit 1.
file(WRITE ${OUT}/shared_ref.relay
     "def @main(%x: float32) {\n  %0 = ref(%x);\n  ref_write(%0, 1);\n  ref_read(%0)\n}\n")
run(1 run ${OUT}/shared_ref.relay)
expect(ERR_TEXT "shared_ref.relay:3:13: error: in @main: ref_write reference")

# run: a pass whose output is deeper than the bounds of ir.h is refused:
# the passes stop there, with the bound's message, exit 1 (to_gnf makes a
# 3000-let chain one expression nested 3000 deep).
set(chain "def @main(%x0: float32) -> float32 {\n")
foreach(i RANGE 1 3000)
  math(EXPR j "${i} - 1")
  string(APPEND chain "  let %x${i} = add(%x${j}, 1f);\n")
endforeach()
file(WRITE ${OUT}/chain.relay "${chain}  %x3000\n}\n")
run(0 run --passes=dead_code ${OUT}/chain.relay)
run(1 run --passes=to_gnf,dead_code ${OUT}/chain.relay)
expect(ERR_TEXT "stopped after to_gnf, whose output is refused:\n.*@main nests deeper than 512 levels \\(IR_MAX_NESTING")

# --name=VALUE is --name VALUE, for every command.
run(0 stats --policy=mlir --count=5 --no-eval)
expect(OUT_TEXT "valid")
run(0 gen --seed=5 --count=3)
set(eq "${OUT_TEXT}")
run(0 gen --seed 5 --count 3)
if(NOT "${eq}" STREQUAL "${OUT_TEXT}")
  message(FATAL_ERROR "gen --seed=5 --count=3 and gen --seed 5 --count 3 differ")
endif()
run(2 stats --policy=nonesuch)
expect(ERR_TEXT "unknown policy 'nonesuch'")

# One decoding everywhere: without --policy, decode, run and gen decode
# bytes with pass_fuzzer's policy, mix (which differs from 'default' for
# some of these files), and decode --target=T with T's.
set(differs FALSE)
foreach(seed 1 2)
  run(0 gen --seed ${seed} --count 1 --size 200 --policy default --save ${OUT})
  set(f ${OUT}/gen-${seed}-0.bin)
  run(0 decode ${f})
  set(plain "${OUT_TEXT}")
  run(0 decode --policy mix ${f})
  if(NOT plain STREQUAL OUT_TEXT)
    message(FATAL_ERROR "decode without --policy is not decode --policy mix:\n${plain}\n---\n${OUT_TEXT}")
  endif()
  run(0 decode --policy default ${f})
  if(NOT plain STREQUAL OUT_TEXT)
    set(differs TRUE)
  endif()
  run(0 run ${f})
  expect(ERR_TEXT "gen-${seed}-0.bin is not Relay text: decoded as a choice stream, policy mix")
  string(REGEX REPLACE "^// program\n" "" ran "${OUT_TEXT}")
  string(FIND "${ran}" "${plain}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "run decodes ${f} otherwise than decode:\n${OUT_TEXT}\n---\n${plain}")
  endif()
  run(0 decode --target=fusion_fuzzer ${f})
  set(fusion "${OUT_TEXT}")
  run(0 decode --policy fusion ${f})
  if(NOT fusion STREQUAL OUT_TEXT)
    message(FATAL_ERROR "decode --target=fusion_fuzzer is not --policy fusion")
  endif()
endforeach()
if(NOT differs)
  message(FATAL_ERROR "no file decodes differently with mix and default: the test shows nothing")
endif()
run(2 decode --target=nonesuch ${OUT}/empty.bin)
expect(ERR_TEXT "unknown target 'nonesuch'")

# run's exit statuses: 3 when the result check was undecided (out of fuel),
# documented in --help; --print-after names a pass of --passes.
run(0 run --help)
expect(OUT_TEXT "\n  3  no oracle fails, but a result comparison was undecided")
expect(OUT_TEXT "\n  --fuel N")
file(WRITE ${OUT}/loop.relay "${header}def @main(%x: float32) -> float32 {\n  add(add(add(%x, 1f), 2f), 3f)\n}\n")
run(0 run --passes=fold_constant ${OUT}/loop.relay)
expect(OUT_TEXT "// same\n$")
run(3 run --passes=fold_constant --fuel 3 ${OUT}/loop.relay)
expect(OUT_TEXT "// undecided: ")
expect(ERR_TEXT "the result check was undecided \\(exit 3\\)")
run(3 run --fuel=3 ${OUT}/loop.relay)
run(2 run --fuel 0 ${OUT}/loop.relay)
run(2 run --fuel x ${OUT}/loop.relay)
run(2 run --passes=fold_constant --print-after=nonesuch ${OUT}/loop.relay)
expect(ERR_TEXT "--print-after=nonesuch: unknown pass")
run(2 run --passes=fold_constant --print-after=inline ${OUT}/loop.relay)
expect(ERR_TEXT "--print-after=inline: inline is not in --passes=fold_constant")
run(0 run --passes=fold_constant,dead_code --print-after=fold_constant ${OUT}/loop.relay)
expect(OUT_TEXT "^// after fold_constant\n")
run(0 run --passes=fold_constant --print-after=all ${OUT}/loop.relay)

# A directory is said to be one; reduce checks that it can write OUT before
# it runs anything.
run(1 run ${OUT})
expect(ERR_TEXT "is a directory")
run(1 decode ${OUT})
expect(ERR_TEXT "is a directory")
run(1 reduce --passes=fold_constant ${OUT}/zero.bin -o ${OUT}/missing/dir/min)
expect(ERR_TEXT "cannot write ${OUT}/missing/dir/min: No such file or directory")
expect(ERR_TEXT "nothing reduced")
if(ERR_TEXT MATCHES "does not fail")
  message(FATAL_ERROR "reduce ran before checking that it can write:\n${ERR_TEXT}")
endif()
