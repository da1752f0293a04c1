//go:build !purego

package cpuid

const purego = false
