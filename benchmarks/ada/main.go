// Command adaside is the Go half of benchmarks/ada.sh: it times
// rfc1738.Check, Valid and Parse over every line of the URL lists it is
// given, by the process's CPU clock (the collector's work on other
// threads counts), as cpp/can_parse.cpp times ada's can_parse and parse over
// the same lines. A timed pass goes over the list as many times as make
// at least 500,000 URLs, so that a short list is timed as well as a long
// one.
//
//	adaside -rounds 1 FILE...
//
// Each round prints, for each file and function, one line:
// "go FUNC FILE NS-PER-URL ACCEPTED".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"

	"github.com/rfc1738/rfc1738"
)

func main() {
	rounds := flag.Int("rounds", 1, "timed passes over each file, after one untimed")
	flag.Parse()
	for _, name := range flag.Args() {
		lines := read(name)
		funcs := []struct {
			name string
			f    func(string) bool
		}{
			{"Check", func(s string) bool { return rfc1738.Check(s).Valid() }},
			{"Valid", rfc1738.Valid},
			{"Parse", func(s string) bool { _, err := rfc1738.Parse(s); return err == nil }},
		}
		for _, fn := range funcs {
			pass(lines, fn.f) // warm the caches and the branch predictors
			for range *rounds {
				k, n := reps(lines), 0
				t0 := cpu()
				for range k {
					n = pass(lines, fn.f)
				}
				ns := float64(cpu()-t0) / float64(k*len(lines))
				fmt.Printf("go %s %s %.1f %d\n", fn.name, filepath.Base(name), ns, n)
			}
		}
	}
}

// pass runs f over every line and returns how many lines it accepted.
func pass(lines []string, f func(string) bool) int {
	n := 0
	for _, s := range lines {
		if f(s) {
			n++
		}
	}
	return n
}

// reps is how many passes over lines a timed round makes.
func reps(lines []string) int { return max(1, (500000+len(lines)-1)/max(len(lines), 1)) }

func read(name string) []string {
	f, err := os.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	return lines
}

// cpu returns the process's CPU clock (CLOCK_PROCESS_CPUTIME_ID, as
// can_parse.cpp reads it) in nanoseconds.
func cpu() int64 {
	const clockProcessCPUTime = 2
	var ts syscall.Timespec
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		log.Fatal(e)
	}
	return ts.Nano()
}
