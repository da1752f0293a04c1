package rfc1738

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// vectorRegister is an operand that names an X, Y or Z register, or a
// macro parameter standing for one ("X", "Y").
var vectorRegister = regexp.MustCompile(`^[XYZ]([0-9]{1,2})?$`)

// macroHead is the first line of a macro with parameters.
var macroHead = regexp.MustCompile(`^#define\s+\w+\(([^)]*)\)`)

// TestAssemblyVEXOnly: the vector kernels (span_amd64.s, and extract's
// colons_amd64.s) use no legacy SSE instruction on a vector register.
// Once the upper halves of the Y registers hold data, such an instruction
// makes some processors switch state each time it runs: one MOVQ to an X
// register in pass 3 of the colons kernel made it 30 times slower on this
// project's AMD EPYC virtual machine, one MOVD made Parse 7 times slower.
// Every instruction that touches a vector register must be VEX or EVEX
// encoded: its mnemonic starts with V (or K, the mask registers').
func TestAssemblyVEXOnly(t *testing.T) {
	var files []string
	filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == "testdata" || d.Name() == "pipeline" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if err == nil && strings.HasSuffix(p, "_amd64.s") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 2 {
		t.Fatalf("found %q: want span_amd64.s and extract/colons_amd64.s at least", files)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var params map[string]bool // of the macro being defined
		for n := 1; sc.Scan(); n++ {
			line, _, _ := strings.Cut(sc.Text(), "//")
			line = strings.TrimSpace(line)
			if m := macroHead.FindStringSubmatch(line); m != nil {
				params = map[string]bool{}
				for _, p := range strings.Split(m[1], ",") {
					params[strings.TrimSpace(p)] = true
				}
			}
			cont := strings.HasSuffix(line, `\`)
			line = strings.TrimSuffix(line, `\`)
			for _, ins := range strings.Split(line, ";") {
				fields := strings.Fields(ins)
				if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || strings.HasSuffix(fields[0], ":") ||
					strings.Contains(fields[0], "(") {
					continue // a directive, a label, a macro's use
				}
				op := fields[0]
				if op == "TEXT" || op == "DATA" || op == "GLOBL" || op[0] == 'V' || op[0] == 'K' || params[op] {
					continue // an instruction a macro's user names is checked where it is named
				}
				for _, arg := range strings.Split(strings.Join(fields[1:], " "), ",") {
					if vectorRegister.MatchString(strings.TrimSpace(arg)) {
						t.Errorf("%s:%d: %s: a legacy SSE instruction on a vector register (use its VEX form, V%s)", name, n, strings.TrimSpace(ins), op)
					}
				}
			}
			if !cont {
				params = nil
			}
		}
		f.Close()
	}
}
