//go:build ignore

// mutation-report reads the JSON that gremlins writes (-o), sets aside the
// survivors that the equivalence file explains, prints killed, lived and
// not-covered mutants per file with the source of every survivor, and
// exits 1 when a file falls below the efficacy or coverage threshold.
//
// The equivalence file has one survivor a line: its file, the function it
// is in, its column, its type, the start of its source line (Go-quoted,
// without the indentation), then the reason:
//
//	fast.go span 12 CONDITIONALS_BOUNDARY "tail := j >= 8"  at j == 8 the octet loop reads the same octets
//
// An entry names no line number, so that an edit elsewhere in the file
// leaves it true; an edit of the line itself makes it stale, and the mutant
// is judged again. A listed mutant that no longer lives (the line changed,
// or a test kills it now) is reported, so the file stays true.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
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
	bad := false
	sort.Slice(r.Files, func(i, j int) bool { return r.Files[i].Name < r.Files[j].Name })
	for _, f := range r.Files {
		path := filepath.ToSlash(filepath.Join(*dir, f.Name))
		var killed, lived, uncovered, timedOut, eq int
		var survivors []string
		for _, m := range f.Mutations {
			key := fmt.Sprintf("%s:%d:%d %s", path, m.Line, m.Column, m.Type)
			explained := equiv.match(path, m.Line, m.Column, m.Type)
			switch m.Status {
			case "KILLED":
				killed++
			case "TIMED OUT":
				// On a loaded machine a mutant judged equivalent may run
				// past gremlins' timeout: that is no test killing it, so
				// its entry is not stale.
				if explained {
					continue
				}
				// Any other is neither killed nor seen to live: it counts
				// against coverage, so that a run whose mutants all time
				// out (tests quicker than a mutant's build, a loaded
				// machine) cannot pass. Raise the timeout coefficient.
				timedOut++
				survivors = append(survivors, fmt.Sprintf("  TIMED OUT %s\t%s", key, sourceLine(path, m.Line)))
			case "LIVED":
				if explained {
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
	for _, e := range equiv {
		if !e.seen && coversDir(e.file, *dir, r) {
			fmt.Printf("  stale equivalence (no such survivor now): %s %s %d %s %q  %s\n", e.file, e.fn, e.col, e.typ, e.text, e.reason)
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

// coversDir reports whether file is a file of this run.
func coversDir(file, dir string, r result) bool {
	for _, f := range r.Files {
		if filepath.ToSlash(filepath.Join(dir, f.Name)) == file {
			return true
		}
	}
	return false
}

// An entry of the equivalence file.
type entry struct {
	file, fn, typ, text, reason string
	col                         int
	seen                        bool
}

type entries []*entry

// match reports whether an entry explains the mutant of type typ at line
// n, column col of path, and marks that entry seen.
func (es entries) match(path string, n, col int, typ string) bool {
	var fn, text string
	for _, e := range es {
		if e.file != path || e.col != col || e.typ != typ {
			continue
		}
		if fn == "" {
			fn, text = funcAt(path, n), sourceLine(path, n)
		}
		if e.fn == fn && strings.HasPrefix(text, e.text) {
			e.seen = true
			return true
		}
	}
	return false
}

func readEquivalent(name string) (entries, error) {
	var es entries
	if name == "" {
		return es, nil
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
		bad := fmt.Errorf("%s:%d: want FILE FUNC COLUMN TYPE \"SOURCE LINE START\" REASON", name, n)
		f := strings.SplitN(line, " ", 5)
		if len(f) < 5 {
			return nil, bad
		}
		col, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, bad
		}
		rest := strings.TrimSpace(f[4])
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, bad
		}
		text, _ := strconv.Unquote(q)
		reason := strings.TrimSpace(rest[len(q):])
		if text == "" || reason == "" {
			return nil, bad
		}
		es = append(es, &entry{file: f[0], fn: f[1], col: col, typ: f[3], text: text, reason: reason})
	}
	return es, sc.Err()
}

// funcAt names the declaration that holds line n of the Go file path: a
// function ("span"), a method ("parser.generic") or the names of a var or
// const declaration ("charsets"); "-" outside any.
func funcAt(path string, n int) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return "-"
	}
	for _, d := range f.Decls {
		if fset.Position(d.Pos()).Line > n || fset.Position(d.End()).Line < n {
			continue
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if g, ok := t.(*ast.IndexExpr); ok {
					t = g.X
				}
				if id, ok := t.(*ast.Ident); ok {
					return id.Name + "." + d.Name.Name
				}
			}
			return d.Name.Name
		case *ast.GenDecl:
			var names []string
			for _, sp := range d.Specs {
				if fset.Position(sp.Pos()).Line > n || fset.Position(sp.End()).Line < n {
					continue
				}
				if v, ok := sp.(*ast.ValueSpec); ok {
					for _, id := range v.Names {
						names = append(names, id.Name)
					}
				}
			}
			if len(names) > 0 {
				return strings.Join(names, ",")
			}
		}
	}
	return "-"
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
