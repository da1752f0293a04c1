//go:build ignore

// mutation-report reads the JSON that gremlins writes (-o), sets aside the
// survivors that the equivalence file explains, prints killed, lived and
// not-covered mutants per file with the source of every survivor, and
// exits 1 when a file falls below the efficacy or coverage threshold.
//
// The equivalence file has one survivor a line, then its reason:
//
//	parse.go:123:14 CONDITIONALS_BOUNDARY  i+2 < j and i+2 <= j-1 are the same test here
//
// A listed mutant that no longer lives (the code moved, or a test kills it
// now) is reported, so the file stays true.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxEquivalent is the share of a file's mutants, in percent, that the
// equivalence list may explain.
const maxEquivalent = 5

type result struct {
	Files []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Line   int    `json:"line"`
			Column int    `json:"column"`
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"mutations"`
	} `json:"files"`
}

func main() {
	dir := flag.String("dir", ".", "the folder gremlins ran on; file names are relative to it")
	equivalent := flag.String("equivalent", "", "the file of survivors judged equivalent")
	efficacy := flag.Float64("efficacy", 97, "minimum killed / (killed + lived), percent")
	coverage := flag.Float64("coverage", 95, "minimum (killed + lived) / (all but equivalents and not viable), percent")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: mutation-report [flags] GREMLINS.json")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		fail(err)
	}
	if mutants(r) == 0 {
		// A run that tested nothing (gremlins found no coverage, or
		// every file was excluded) proves nothing.
		fmt.Printf("mutation testing of %s: gremlins reported no mutant at all\n", *dir)
		os.Exit(1)
	}
	equiv, err := readEquivalent(*equivalent)
	if err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	bad := false
	sort.Slice(r.Files, func(i, j int) bool { return r.Files[i].Name < r.Files[j].Name })
	for _, f := range r.Files {
		path := filepath.ToSlash(filepath.Join(*dir, f.Name))
		var killed, lived, uncovered, timedOut, eq int
		var survivors []string
		for _, m := range f.Mutations {
			key := fmt.Sprintf("%s:%d:%d %s", path, m.Line, m.Column, m.Type)
			switch m.Status {
			case "KILLED":
				killed++
			case "TIMED OUT":
				// On a loaded machine a mutant judged equivalent may run
				// past gremlins' timeout: that is no test killing it, so
				// its entry is not stale.
				if _, ok := equiv[key]; ok {
					seen[key] = true
					continue
				}
				// Any other is neither killed nor seen to live: it counts
				// against coverage, so that a run whose mutants all time
				// out (tests quicker than a mutant's build, a loaded
				// machine) cannot pass. Raise the timeout coefficient.
				timedOut++
				survivors = append(survivors, fmt.Sprintf("  TIMED OUT %s\t%s", key, sourceLine(path, m.Line)))
			case "LIVED":
				if _, ok := equiv[key]; ok {
					seen[key] = true
					eq++
					continue
				}
				lived++
				survivors = append(survivors, fmt.Sprintf("  LIVED %s\t%s", key, sourceLine(path, m.Line)))
			case "NOT COVERED":
				uncovered++
				survivors = append(survivors, fmt.Sprintf("  NOT COVERED %s\t%s", key, sourceLine(path, m.Line)))
			}
		}
		tested := killed + lived
		eff, cov := 100.0, 100.0
		if tested > 0 {
			eff = 100 * float64(killed) / float64(tested)
		}
		if all := tested + uncovered + timedOut; all > 0 {
			cov = 100 * float64(tested) / float64(all)
		}
		verdict := "ok"
		if eff < *efficacy || cov < *coverage {
			verdict, bad = "BELOW THRESHOLD", true
		}
		// An equivalence list that explains away more than a few survivors
		// is no longer a list of exceptions: at most maxEquivalent percent
		// of a file's mutants.
		if all := len(f.Mutations); all > 0 && 100*float64(eq) > maxEquivalent*float64(all) {
			verdict, bad = fmt.Sprintf("TOO MANY EQUIVALENTS (over %d%% of %d)", maxEquivalent, all), true
		}
		fmt.Printf("%-24s killed %4d  lived %3d  not covered %3d  timed out %3d  equivalent %3d  efficacy %6.2f%%  coverage %6.2f%%  %s\n",
			path, killed, lived, uncovered, timedOut, eq, eff, cov, verdict)
		for _, s := range survivors {
			fmt.Println(s)
		}
	}
	for key, reason := range equiv {
		if !seen[key] && coversDir(key, *dir, r) {
			fmt.Printf("  stale equivalence (no such survivor now): %s  %s\n", key, reason)
			bad = true
		}
	}
	if bad {
		fmt.Printf("mutation testing of %s: below %.0f%% efficacy or %.0f%% coverage, too many equivalents, or a stale equivalence\n", *dir, *efficacy, *coverage)
		os.Exit(1)
	}
}

// mutants counts the mutants of every status in r.
func mutants(r result) int {
	n := 0
	for _, f := range r.Files {
		n += len(f.Mutations)
	}
	return n
}

// coversDir reports whether key names a file of this run.
func coversDir(key, dir string, r result) bool {
	file, _, _ := strings.Cut(key, ":")
	for _, f := range r.Files {
		if filepath.ToSlash(filepath.Join(dir, f.Name)) == file {
			return true
		}
	}
	return false
}

func readEquivalent(name string) (map[string]string, error) {
	m := map[string]string{}
	if name == "" {
		return m, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want FILE:LINE:COL TYPE REASON", name, n)
		}
		m[f[0]+" "+f[1]] = strings.Join(f[2:], " ")
	}
	return m, sc.Err()
}

func sourceLine(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutation-report:", err)
	os.Exit(2)
}
