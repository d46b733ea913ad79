/*
 * asan.h - RS_ASAN: defined when AddressSanitizer instruments the file
 * that includes this (clang's __has_feature, gcc's __SANITIZE_ADDRESS__),
 * for code that tells the sanitizer about its own memory.
 */
#ifndef RS_IR_ASAN_H
#define RS_IR_ASAN_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(RS_ASAN)
#define RS_ASAN 1
#endif

#endif
