// Package cpuid reads which vector instructions the CPU runs and the
// operating system keeps the registers of: what the assembly kernels of
// the grammar core (span) and of extract (colonBlocks) choose between at
// start-up. It uses the standard library only, as both packages do.
package cpuid

// AVX2 and AVX512BW report whether the CPU runs AVX2 and AVX-512 F and BW,
// and the OS keeps their state. Both are false off amd64 and with the
// purego build tag.
var AVX2, AVX512BW = features()
