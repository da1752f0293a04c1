//go:build ignore

// mutation-sample runs a sample of the mutants that .ci/mutation recorded
// (.ci/gates/*.json, gremlins' reports) again, so that a record is evidence
// of a run: a mutant recorded KILLED must still fail a test, one recorded
// LIVED must still pass every test. It applies each mutation itself, at
// the recorded file, line and column with the recorded gremlins mutator
// type, and builds the package's tests with go's -overlay (a JSON file that
// stands the mutated copy of the one file in for it): the work tree is never
// written.
//
//	go run .ci/mutation-sample.go [-n 12] [-seed HEX] [-equivalent FILE] TARGET...
//	go run .ci/mutation-sample.go -check TARGET...
//	go run .ci/mutation-sample.go -list [-n 12] [-seed HEX] ... TARGET...
//
// A TARGET is DIR:COEFFICIENT:RECORD[:FILE,...], the folder gremlins ran
// on ("." is the root), its timeout coefficient, its record and the files
// it mutated (relative to DIR):
// download:10:.ci/gates/mutation-download-doc-name-part.json:doc.go,name.go,part.go.
//
// Before anything runs, every recorded mutant is checked against the source:
// its line and column must hold a token its type mutates, and the mutants
// the source offers for gremlins' default types must be exactly those the
// record lists, file by file (and, where the TARGET names its files, a file
// the record leaves out must offer none). -check does only this (no build,
// no test).
//
// The sample: -n mutants picked with a PRNG seeded by -seed (CI passes the
// commit, git rev-parse HEAD), so that each commit tries others. Up to half
// the places go to LIVED mutants, those that -equivalent explains first
// (a claim that a mutant cannot change behaviour is the one most worth
// trying again); the rest, and at least one, to KILLED mutants.
//
// Each package's tests are first built and run without a mutant: they must
// pass (else every mutant would look killed), and their time, times the
// target's coefficient (at least 1 s times it), bounds each mutant's run, as
// gremlins' timeout does. A mutant is killed when its package does not
// build, its tests fail or outlast that bound, or go test's vet checks
// refuse it (gremlins runs go test, which runs them); it lived when all
// pass. Exit status 1 when a mutant's status differs from its record, or a
// record does not fit the source; 2 on an error. -list prints the sample
// and runs nothing.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mutations is gremlins v0.6.0's table (internal/engine/mappings.go): for
// each mutator type, the token it replaces and the token it puts there.
// A token of an assignment, a binary or unary expression, a branch or an
// ++/-- statement is mutated by every type whose row holds it.
var mutations = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {
		token.ADD: token.SUB, token.MUL: token.QUO, token.QUO: token.MUL,
		token.REM: token.MUL, token.SUB: token.ADD,
	},
	"CONDITIONALS_BOUNDARY": {
		token.GEQ: token.GTR, token.GTR: token.GEQ, token.LEQ: token.LSS, token.LSS: token.LEQ,
	},
	"CONDITIONALS_NEGATION": {
		token.EQL: token.NEQ, token.GEQ: token.LSS, token.GTR: token.LEQ,
		token.LEQ: token.GTR, token.LSS: token.GEQ, token.NEQ: token.EQL,
	},
	"INCREMENT_DECREMENT": {token.DEC: token.INC, token.INC: token.DEC},
	"INVERT_ASSIGNMENTS": {
		token.ADD_ASSIGN: token.SUB_ASSIGN, token.MUL_ASSIGN: token.QUO_ASSIGN,
		token.QUO_ASSIGN: token.MUL_ASSIGN, token.REM_ASSIGN: token.REM_ASSIGN,
		token.SUB_ASSIGN: token.ADD_ASSIGN,
	},
	"INVERT_BITWISE": {
		token.AND: token.OR, token.OR: token.AND, token.XOR: token.AND,
		token.AND_NOT: token.AND, token.SHL: token.SHR, token.SHR: token.SHL,
	},
	"INVERT_BWASSIGN": {
		token.AND_ASSIGN: token.OR_ASSIGN, token.OR_ASSIGN: token.AND_ASSIGN,
		token.XOR_ASSIGN: token.AND_ASSIGN, token.AND_NOT_ASSIGN: token.AND_ASSIGN,
		token.SHL_ASSIGN: token.SHR_ASSIGN, token.SHR_ASSIGN: token.SHL_ASSIGN,
	},
	"INVERT_LOGICAL":  {token.LAND: token.LOR, token.LOR: token.LAND},
	"INVERT_LOOPCTRL": {token.BREAK: token.CONTINUE, token.CONTINUE: token.BREAK},
	// The same swap as ARITHMETIC_BASE's: gremlins offers both at every '-'.
	"INVERT_NEGATIVES": {token.SUB: token.ADD},
	"REMOVE_SELF_ASSIGNMENTS": {
		token.ADD_ASSIGN: token.ASSIGN, token.AND_ASSIGN: token.ASSIGN,
		token.AND_NOT_ASSIGN: token.ASSIGN, token.MUL_ASSIGN: token.ASSIGN,
		token.OR_ASSIGN: token.ASSIGN, token.QUO_ASSIGN: token.ASSIGN,
		token.REM_ASSIGN: token.ASSIGN, token.SHL_ASSIGN: token.ASSIGN,
		token.SHR_ASSIGN: token.ASSIGN, token.SUB_ASSIGN: token.ASSIGN,
		token.XOR_ASSIGN: token.ASSIGN,
	},
}

// defaultTypes are the types gremlins v0.6.0 runs unless configured
// otherwise (internal/configuration/mutantenabled.go); .ci/mutation
// configures nothing.
var defaultTypes = []string{"ARITHMETIC_BASE", "CONDITIONALS_BOUNDARY",
	"CONDITIONALS_NEGATION", "INCREMENT_DECREMENT", "INVERT_NEGATIVES"}

type record struct {
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

type target struct {
	dir, path string
	coef      float64
	files     []string
	rec       record
	timeout   time.Duration // set by baseline
}

type mutant struct {
	t          *target
	file       string // relative to the module root
	line, col  int
	typ        string
	status     string // recorded
	equivalent bool
}

func (m *mutant) String() string {
	return fmt.Sprintf("%s:%d:%d %s", m.file, m.line, m.col, m.typ)
}

func main() {
	check := flag.Bool("check", false, "only check that every recorded mutant fits the source; build and run nothing")
	list := flag.Bool("list", false, "only list the mutants the sample would run")
	n := flag.Int("n", 12, "how many mutants to run")
	seed := flag.String("seed", "", "hex seed of the PRNG (the commit hash); default: the time")
	equivalent := flag.String("equivalent", "", "the file of survivors judged equivalent (.ci/mutation-equivalent)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mutation-sample [-check|-list] [-n N] [-seed HEX] [-equivalent FILE] DIR:COEFFICIENT:RECORD...")
		os.Exit(2)
	}
	var targets []*target
	for _, a := range flag.Args() {
		t, err := readTarget(a)
		if err != nil {
			fail(err)
		}
		targets = append(targets, t)
	}
	bad := false
	for _, t := range targets {
		if !checkTarget(t) {
			bad = true
		}
	}
	if bad {
		fmt.Println("mutation sample: a record does not fit the source it names (see above)")
		os.Exit(1)
	}
	if *check {
		return
	}
	equiv, err := readEquivalent(*equivalent)
	if err != nil {
		fail(err)
	}
	picked, reserve, summary := pick(targets, equiv, *n, *seed)
	fmt.Println(summary)
	if *list {
		for _, m := range picked {
			fmt.Printf("  %s: recorded %s\n", m, m.status)
		}
		return
	}
	if len(picked) == 0 {
		return
	}
	tmp, err := os.MkdirTemp("", "mutation-sample")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	mismatches := 0
	base := map[string]time.Duration{} // by folder: two targets may share one
	unbuilt := 0
	for i := 0; i < len(picked); i++ {
		m := picked[i]
		if m.t.timeout == 0 {
			if err := baseline(m.t, tmp, base); err != nil {
				fmt.Println(err)
				os.RemoveAll(tmp)
				os.Exit(1)
			}
		}
		got, how, took, err := run(m, tmp)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutation-sample: %s: %v\n", m, err)
			os.RemoveAll(tmp)
			os.Exit(2)
		}
		verdict := "as recorded"
		if got != m.status {
			verdict = "MISMATCH"
			mismatches++
		}
		eq := ""
		if m.equivalent {
			eq = " (listed as equivalent)"
		}
		fmt.Printf("  %-11s %s%s: recorded %s, now %s: %s (%.1f s)\n", verdict, m, eq, m.status, got, how, took.Seconds())
		// A mutant the compiler refuses tests no test: gremlins counts it
		// killed, and so does this, but another killed one is drawn in
		// its place (as many as the sample's size at most).
		if strings.HasSuffix(how, "does not build") && len(reserve) > 0 && unbuilt < *n {
			unbuilt++
			picked = append(picked, reserve[0])
			reserve = reserve[1:]
		}
	}
	fmt.Printf("mutation sample: %d mutants (%d of them do not build), %d as recorded, %d not (%.0f s)\n",
		len(picked), unbuilt, len(picked)-mismatches, mismatches, time.Since(start).Seconds())
	if mismatches > 0 {
		fmt.Println("mutation sample: a record says what a run of its mutants does not: run gremlins on that target again (.ci/mutation full DIR) and find out why")
		os.RemoveAll(tmp)
		os.Exit(1)
	}
}

func readTarget(a string) (*target, error) {
	f := strings.SplitN(a, ":", 4)
	if len(f) < 3 {
		return nil, fmt.Errorf("%q: want DIR:COEFFICIENT:RECORD[:FILE,...]", a)
	}
	coef, err := strconv.ParseFloat(f[1], 64)
	if err != nil || coef <= 0 {
		return nil, fmt.Errorf("%q: bad coefficient %q", a, f[1])
	}
	b, err := os.ReadFile(f[2])
	if err != nil {
		return nil, err
	}
	t := &target{dir: filepath.Clean(f[0]), coef: coef, path: f[2]}
	if len(f) == 4 && f[3] != "" {
		t.files = strings.Split(f[3], ",")
	}
	if err := json.Unmarshal(b, &t.rec); err != nil {
		return nil, fmt.Errorf("%s: %v", f[2], err)
	}
	return t, nil
}

// site is a token gremlins can mutate.
type site struct {
	tok    token.Token
	offset int
}

// sites lists the tokens of a Go source that gremlins visits, by
// line:column, as its NewTokenNode does (internal/engine/node.go).
func sites(name string, src []byte) (map[[2]int]site, *token.FileSet, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	out := map[[2]int]site{}
	ast.Inspect(f, func(n ast.Node) bool {
		var tok token.Token
		var pos token.Pos
		switch n := n.(type) {
		case *ast.AssignStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.BinaryExpr:
			tok, pos = n.Op, n.OpPos
		case *ast.BranchStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.IncDecStmt:
			tok, pos = n.Tok, n.TokPos
		case *ast.UnaryExpr:
			tok, pos = n.Op, n.OpPos
		default:
			return true
		}
		p := fset.Position(pos)
		out[[2]int{p.Line, p.Column}] = site{tok, p.Offset}
		return true
	})
	return out, fset, nil
}

// checkTarget reports whether every mutant of t's record lands on a token
// its type mutates, and whether the record lists every mutant of the
// default types that its files offer.
func checkTarget(t *target) bool {
	ok := true
	total := 0
	listed := map[string]bool{}
	for _, f := range t.rec.Files {
		listed[f.Name] = true
	}
	for _, name := range t.files {
		if listed[name] {
			continue
		}
		// gremlins lists no file it found no mutant in (doc.go).
		path := filepath.Join(t.dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Printf("  %s: %v\n", t.path, err)
			ok = false
			continue
		}
		ss, _, err := sites(path, src)
		if err != nil {
			fmt.Printf("  %s: %v\n", t.path, err)
			ok = false
			continue
		}
		n := 0
		for _, s := range ss {
			for _, typ := range defaultTypes {
				if _, can := mutations[typ][s.tok]; can {
					n++
				}
			}
		}
		if n > 0 {
			fmt.Printf("  %s: %s offers %d mutants; the record lists none of that file\n", t.path, filepath.ToSlash(path), n)
			ok = false
		}
	}
	for _, f := range t.rec.Files {
		path := filepath.Join(t.dir, f.Name)
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Printf("  %s: %v\n", t.path, err)
			ok = false
			continue
		}
		ss, _, err := sites(path, src)
		if err != nil {
			fmt.Printf("  %s: %v\n", t.path, err)
			ok = false
			continue
		}
		recorded := map[string]bool{}
		for _, m := range f.Mutations {
			total++
			key := fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(path), m.Line, m.Column, m.Type)
			recorded[key] = true
			s, found := ss[[2]int{m.Line, m.Column}]
			row, known := mutations[m.Type]
			switch {
			case !known:
				fmt.Printf("  %s: %s: no such mutator type\n", t.path, key)
				ok = false
			case !found:
				fmt.Printf("  %s: %s: no operator starts there (%q)\n", t.path, key, lineOf(src, m.Line))
				ok = false
			default:
				if _, can := row[s.tok]; !can {
					fmt.Printf("  %s: %s: %s there, which that type does not mutate\n", t.path, key, s.tok)
					ok = false
				}
			}
		}
		// What gremlins would have found in this source.
		var missing []string
		for pos, s := range ss {
			for _, typ := range defaultTypes {
				if _, can := mutations[typ][s.tok]; !can {
					continue
				}
				key := fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(path), pos[0], pos[1], typ)
				if !recorded[key] {
					missing = append(missing, key)
				}
			}
		}
		sort.Strings(missing)
		for _, k := range missing {
			fmt.Printf("  %s: %s: the source offers this mutant; the record lacks it\n", t.path, k)
			ok = false
		}
	}
	if ok {
		fmt.Printf("%s: %d recorded mutants, each on a token its type mutates, and every mutant of its files' source recorded\n", t.path, total)
	}
	return ok
}

// pick chooses up to n mutants of the targets with a PRNG seeded by seed,
// and returns the killed ones it left, in the order they would be drawn.
func pick(targets []*target, equiv []equivEntry, n int, seed string) (picked, reserve []*mutant, summary string) {
	var killed, livedEq, lived []*mutant
	for _, t := range targets {
		for _, f := range t.rec.Files {
			path := filepath.ToSlash(filepath.Join(t.dir, f.Name))
			src, _ := os.ReadFile(path)
			for _, m := range f.Mutations {
				mu := &mutant{t: t, file: path, line: m.Line, col: m.Column, typ: m.Type, status: m.Status}
				switch m.Status {
				case "KILLED":
					killed = append(killed, mu)
				case "LIVED":
					for _, e := range equiv {
						if e.file == path && e.col == m.Column && e.typ == m.Type &&
							strings.HasPrefix(lineOf(src, m.Line), e.text) {
							mu.equivalent = true
						}
					}
					if mu.equivalent {
						livedEq = append(livedEq, mu)
					} else {
						lived = append(lived, mu)
					}
				}
				// TIMED OUT, NOT COVERED, NOT VIABLE: no outcome to compare.
			}
		}
	}
	s1, s2 := seeds(seed)
	r := rand.New(rand.NewPCG(s1, s2))
	shuffle := func(ms []*mutant) {
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	}
	shuffle(killed)
	shuffle(livedEq)
	shuffle(lived)
	nl := min(len(livedEq)+len(lived), n/2)
	if len(killed) == 0 {
		nl = min(len(livedEq)+len(lived), n)
	}
	picked = append(append([]*mutant{}, livedEq...), lived...)[:nl]
	nk := min(len(killed), n-nl)
	picked = append(picked, killed[:nk]...)
	reserve = killed[nk:]
	// Run them package by package, so that each baseline runs once.
	sort.SliceStable(picked, func(i, j int) bool { return picked[i].t.dir < picked[j].t.dir })
	summary = fmt.Sprintf("mutation sample (seed %s): %d of %d killed and %d of %d lived mutants (%d of them listed as equivalent) from %d records",
		seed, len(picked)-nl, len(killed), nl, len(livedEq)+len(lived), len(livedEq), len(targets))
	return picked, reserve, summary
}

// seeds makes the PRNG's two seeds of a hex string (a commit hash).
func seeds(s string) (uint64, uint64) {
	if s == "" {
		now := uint64(time.Now().UnixNano())
		return now, now >> 7
	}
	h := strings.Repeat("0", 32) + strings.ToLower(s)
	a, err1 := strconv.ParseUint(h[len(h)-32:len(h)-16], 16, 64)
	b, err2 := strconv.ParseUint(h[len(h)-16:], 16, 64)
	if err1 != nil || err2 != nil {
		fail(fmt.Errorf("-seed %q: want hex digits (a commit hash)", s))
	}
	return a, b
}

// baseline builds and runs t's tests without a mutant, and sets the bound
// of a mutant's run from their time.
func baseline(t *target, tmp string, base map[string]time.Duration) error {
	if took, ok := base[t.dir]; ok {
		t.timeout = time.Duration(t.coef * float64(max(took, time.Second)))
		return nil
	}
	bin := filepath.Join(tmp, "base.test")
	if out, err := goCmd("test", "-c", "-o", bin, pkg(t.dir)); err != nil {
		return fmt.Errorf("mutation sample: the tests of %s do not build without a mutant:\n%s", t.dir, out)
	}
	start := time.Now()
	out, err, _ := runTests(bin, t.dir, 10*time.Minute)
	took := time.Since(start)
	base[t.dir] = took
	if err != nil {
		return fmt.Errorf("mutation sample: the tests of %s fail without a mutant (every mutant would look killed): %s\n%s", t.dir, failure(out), tail(out))
	}
	t.timeout = time.Duration(t.coef * float64(max(took, time.Second)))
	fmt.Printf("%s: its tests take %.3f s without a mutant; a mutant's run is cut at %g × max(that, 1 s) = %.1f s\n",
		t.dir, took.Seconds(), t.coef, t.timeout.Seconds())
	return nil
}

// run applies m in an overlay, builds and runs its package's tests, and
// says what became of it: KILLED or LIVED, and how.
func run(m *mutant, tmp string) (status, how string, took time.Duration, err error) {
	start := time.Now()
	defer func() { took = time.Since(start) }()
	src, err := os.ReadFile(m.file)
	if err != nil {
		return "", "", 0, err
	}
	mutated, from, to, err := apply(m, src)
	if err != nil {
		return "", "", 0, err
	}
	abs, err := filepath.Abs(m.file)
	if err != nil {
		return "", "", 0, err
	}
	mfile := filepath.Join(tmp, "mutant.go")
	ov := filepath.Join(tmp, "overlay.json")
	ovJSON, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: mfile}})
	if err := os.WriteFile(mfile, mutated, 0o600); err != nil {
		return "", "", 0, err
	}
	if err := os.WriteFile(ov, ovJSON, 0o600); err != nil {
		return "", "", 0, err
	}
	swap := fmt.Sprintf("%s → %s", from, to)
	bin := filepath.Join(tmp, "mutant.test")
	if _, err := goCmd("test", "-c", "-overlay", ov, "-o", bin, pkg(m.t.dir)); err != nil {
		// gremlins counts a mutant whose build fails (go test exits 1)
		// as killed.
		return "KILLED", swap + ", does not build", 0, nil
	}
	out, err, timedOut := runTests(bin, m.t.dir, m.t.timeout)
	switch {
	case timedOut:
		return "KILLED", fmt.Sprintf("%s, tests outlast %.1f s", swap, m.t.timeout.Seconds()), 0, nil
	case err != nil:
		return "KILLED", fmt.Sprintf("%s, %s", swap, failure(out)), 0, nil
	}
	// The tests pass. gremlins ran go test, which vets before testing:
	// a mutant the vet checks refuse was killed there.
	if out, err := goCmd("test", "-count=1", "-run", "^$", "-overlay", ov, pkg(m.t.dir)); err != nil {
		return "KILLED", fmt.Sprintf("%s, go test's vet checks refuse it: %s", swap, firstLine(out)), 0, nil
	}
	return "LIVED", swap + ", every test passes", 0, nil
}

// apply returns src with m's token swapped, checking by parsing the result
// that the swap made the operator m's type makes (spaces are put around
// the new token where it would otherwise run into its neighbours: "a+-b").
func apply(m *mutant, src []byte) ([]byte, string, string, error) {
	ss, _, err := sites(m.file, src)
	if err != nil {
		return nil, "", "", err
	}
	s, ok := ss[[2]int{m.line, m.col}]
	if !ok {
		return nil, "", "", errors.New("no operator at that line and column")
	}
	to, ok := mutations[m.typ][s.tok]
	if !ok {
		return nil, "", "", fmt.Errorf("%s does not mutate %s", m.typ, s.tok)
	}
	old := s.tok.String()
	if !bytes.HasPrefix(src[s.offset:], []byte(old)) {
		return nil, "", "", fmt.Errorf("%s is not at offset %d", old, s.offset)
	}
	for _, pad := range []string{"", " "} {
		out := append(append(append([]byte{}, src[:s.offset]...), pad+to.String()+pad...), src[s.offset+len(old):]...)
		got, _, err := sites(m.file, out)
		if err != nil {
			continue
		}
		for _, g := range got {
			if g.offset == s.offset+len(pad) && g.tok == to {
				return out, old, to.String(), nil
			}
		}
	}
	return nil, "", "", fmt.Errorf("swapping %s for %s does not parse as that operator", old, to)
}

// runTests runs a test binary in its package's folder, as go test does,
// and kills it and its children after limit.
func runTests(bin, dir string, limit time.Duration) (out []byte, err error, timedOut bool) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.failfast", "-test.timeout", (limit + 5*time.Second).String())
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err = cmd.Run()
	return b.Bytes(), err, ctx.Err() != nil
}

func goCmd(args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	return cmd.CombinedOutput()
}

func pkg(dir string) string {
	if dir == "." {
		return "."
	}
	return "./" + filepath.ToSlash(dir)
}

var (
	failRE  = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	panicRE = regexp.MustCompile(`(?m)^panic: (.*)$`)
)

// failure says how a test run failed: the first test that failed, or the
// panic that ended it.
func failure(out []byte) string {
	if m := failRE.FindSubmatch(out); m != nil {
		return string(m[1]) + " fails"
	}
	if m := panicRE.FindSubmatch(out); m != nil {
		return "the tests panic: " + string(m[1])
	}
	return "the test binary fails: " + firstLine(out)
}

func firstLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

func tail(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

func lineOf(src []byte, n int) string {
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// An entry of .ci/mutation-equivalent (its format: mutation-report.go);
// the function it names is not compared here: it only weighs the sample.
type equivEntry struct {
	file, typ, text string
	col             int
}

func readEquivalent(name string) ([]equivEntry, error) {
	if name == "" {
		return nil, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var es []equivEntry
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 5)
		if len(f) < 5 {
			continue
		}
		col, err := strconv.Atoi(f[2])
		if err != nil {
			continue
		}
		q, err := strconv.QuotedPrefix(strings.TrimSpace(f[4]))
		if err != nil {
			continue
		}
		text, _ := strconv.Unquote(q)
		es = append(es, equivEntry{file: f[0], typ: f[3], text: text, col: col})
	}
	return es, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutation-sample:", err)
	os.Exit(2)
}
