// Force-included (-include) by clang builds for CUDA with Debian 12's CUDA
// 11.8 toolkit (scripts/lib/clang_cuda.sh): CUDA's crt/host_defines.h
// defines __noinline__ as a macro, which breaks GCC 12's libstdc++ headers
// (they use __attribute__((__noinline__))); clang knows the keyword itself.
#undef __noinline__
