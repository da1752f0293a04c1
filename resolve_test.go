package rfc1738

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testenv"
)

// exampleBase is the base of RFC 1808 §5 (RFC 3986 §5.4 uses it without
// the fragment).
const exampleBase = "http://a/b/c/d;p?q#f"

// rfc1808Examples are RFC 1808 §5.1 and §5.2, verbatim and in order ("<>"
// in the RFC is the empty reference). strict1738 says whether the result
// is an RFC 1738 URL: "?y/./x" is not an http search (§5: search has no
// "/"), and "http:g", "http:" have no "//" (§3.3).
var rfc1808Examples = []struct {
	ref, want  string
	notRFC1738 bool
}{
	// §5.1 Normal Examples
	{"g:h", "g:h", false},
	{"g", "http://a/b/c/g", false},
	{"./g", "http://a/b/c/g", false},
	{"g/", "http://a/b/c/g/", false},
	{"/g", "http://a/g", false},
	{"//g", "http://g", false},
	{"?y", "http://a/b/c/d;p?y", false},
	{"g?y", "http://a/b/c/g?y", false},
	{"g?y/./x", "http://a/b/c/g?y/./x", true},
	{"#s", "http://a/b/c/d;p?q#s", false},
	{"g#s", "http://a/b/c/g#s", false},
	{"g#s/./x", "http://a/b/c/g#s/./x", false},
	{"g?y#s", "http://a/b/c/g?y#s", false},
	{";x", "http://a/b/c/d;x", false},
	{"g;x", "http://a/b/c/g;x", false},
	{"g;x?y#s", "http://a/b/c/g;x?y#s", false},
	{".", "http://a/b/c/", false},
	{"./", "http://a/b/c/", false},
	{"..", "http://a/b/", false},
	{"../", "http://a/b/", false},
	{"../g", "http://a/b/g", false},
	{"../..", "http://a/", false},
	{"../../", "http://a/", false},
	{"../../g", "http://a/g", false},
	// §5.2 Abnormal Examples
	{"", "http://a/b/c/d;p?q#f", false},
	{"../../../g", "http://a/../g", false},
	{"../../../../g", "http://a/../../g", false},
	{"/./g", "http://a/./g", false},
	{"/../g", "http://a/../g", false},
	{"g.", "http://a/b/c/g.", false},
	{".g", "http://a/b/c/.g", false},
	{"g..", "http://a/b/c/g..", false},
	{"..g", "http://a/b/c/..g", false},
	{"./../g", "http://a/b/g", false},
	{"./g/.", "http://a/b/c/g/", false},
	{"g/./h", "http://a/b/c/g/h", false},
	{"g/../h", "http://a/b/c/h", false},
	{"http:g", "http:g", true},
	{"http:", "http:", true},
}

// rfc3986Examples are RFC 3986 §5.4.1 and §5.4.2, verbatim and in order,
// against the base "http://a/b/c/d;p?q" (strict parser: "http:g" is
// "http:g").
var rfc3986Examples = []struct {
	ref, want  string
	notRFC1738 bool
}{
	// §5.4.1 Normal Examples
	{"g:h", "g:h", false},
	{"g", "http://a/b/c/g", false},
	{"./g", "http://a/b/c/g", false},
	{"g/", "http://a/b/c/g/", false},
	{"/g", "http://a/g", false},
	{"//g", "http://g", false},
	{"?y", "http://a/b/c/d;p?y", false},
	{"g?y", "http://a/b/c/g?y", false},
	{"#s", "http://a/b/c/d;p?q#s", false},
	{"g#s", "http://a/b/c/g#s", false},
	{"g?y#s", "http://a/b/c/g?y#s", false},
	{";x", "http://a/b/c/;x", false},
	{"g;x", "http://a/b/c/g;x", false},
	{"g;x?y#s", "http://a/b/c/g;x?y#s", false},
	{"", "http://a/b/c/d;p?q", false},
	{".", "http://a/b/c/", false},
	{"./", "http://a/b/c/", false},
	{"..", "http://a/b/", false},
	{"../", "http://a/b/", false},
	{"../g", "http://a/b/g", false},
	{"../..", "http://a/", false},
	{"../../", "http://a/", false},
	{"../../g", "http://a/g", false},
	// §5.4.2 Abnormal Examples
	{"../../../g", "http://a/g", false},
	{"../../../../g", "http://a/g", false},
	{"/./g", "http://a/g", false},
	{"/../g", "http://a/g", false},
	{"g.", "http://a/b/c/g.", false},
	{".g", "http://a/b/c/.g", false},
	{"g..", "http://a/b/c/g..", false},
	{"..g", "http://a/b/c/..g", false},
	{"./../g", "http://a/b/g", false},
	{"./g/.", "http://a/b/c/g/", false},
	{"g/./h", "http://a/b/c/g/h", false},
	{"g/../h", "http://a/b/c/h", false},
	{"g;x=1/./y", "http://a/b/c/g;x=1/y", false},
	{"g;x=1/../y", "http://a/b/c/y", false},
	{"g?y/./x", "http://a/b/c/g?y/./x", true},
	{"g?y/../x", "http://a/b/c/g?y/../x", true},
	{"g#s/./x", "http://a/b/c/g#s/./x", false},
	{"g#s/../x", "http://a/b/c/g#s/../x", false},
	{"http:g", "http:g", true},
}

// resolved returns the absolute form a resolver made, whether or not it
// parsed, and whether it parsed. An error that is not a *ResolveError
// wrapping Parse's error comes back as a form no table expects.
func resolved(v URL, err error) (string, bool) {
	if err == nil {
		return v.String(), true
	}
	var re *ResolveError
	if !errors.As(err, &re) || re.Resolved == "" {
		return "<not a *ResolveError with a resolved form: " + err.Error() + ">", false
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Input != re.Resolved {
		return "<does not wrap the parse error of the resolved form: " + err.Error() + ">", false
	}
	return re.Resolved, false
}

func TestResolveRFC1808Examples(t *testing.T) {
	base := mustParse(t, exampleBase)
	for _, c := range rfc1808Examples {
		got, ok := resolved(base.Resolve(c.ref))
		if got != c.want || ok == c.notRFC1738 {
			t.Errorf("RFC 1808 §5: Resolve(%q) = %q (RFC 1738 URL: %v), want %q (%v)", c.ref, got, ok, c.want, !c.notRFC1738)
		}
	}
}

// TestRFC1808ExamplesText reads §5.1 and §5.2 from the RFC's text and
// checks the table above is exactly them.
func TestRFC1808ExamplesText(t *testing.T) {
	text, err := os.ReadFile(testenv.SharedFile(t, "spec/rfc1808.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	start, end := strings.Index(s, "5.1.  Normal Examples"), strings.Index(s, "5.3.  Recommended Practice")
	if start < 0 || end < start {
		t.Fatal("rfc1808.txt: §5.1 to §5.3 not found")
	}
	if !strings.Contains(s[:start], "Base: <URL:"+exampleBase+">") {
		t.Fatalf("rfc1808.txt: §5's base is not %s", exampleBase)
	}
	line := regexp.MustCompile(`(?m)^\s+(\S+)\s+= <URL:(\S*)>$`)
	var n int
	for _, m := range line.FindAllStringSubmatch(s[start:end], -1) {
		ref := m[1]
		if ref == "<>" {
			ref = ""
		}
		if n >= len(rfc1808Examples) {
			t.Errorf("RFC example %q = %q is not in the table", ref, m[2])
		} else if c := rfc1808Examples[n]; c.ref != ref || c.want != m[2] {
			t.Errorf("table row %d is %q = %q; the RFC says %q = %q", n, c.ref, c.want, ref, m[2])
		}
		n++
	}
	if n != len(rfc1808Examples) || n != 39 {
		t.Errorf("the RFC has %d examples, the table %d (want 39: 24 normal, 15 abnormal)", n, len(rfc1808Examples))
	}
}

func TestResolveRFC3986Examples(t *testing.T) {
	base := mustParse(t, "http://a/b/c/d;p?q")
	withFragment := mustParse(t, exampleBase)
	if len(rfc3986Examples) != 42 {
		t.Errorf("the table has %d examples; §5.4 has 42 (23 normal, 19 abnormal)", len(rfc3986Examples))
	}
	for _, c := range rfc3986Examples {
		got, ok := resolved(base.ResolveRFC3986(c.ref))
		if got != c.want || ok == c.notRFC1738 {
			t.Errorf("RFC 3986 §5.4: ResolveRFC3986(%q) = %q (RFC 1738 URL: %v), want %q (%v)", c.ref, got, ok, c.want, !c.notRFC1738)
		}
		// §5.2.1: the base's fragment plays no part.
		if got2, _ := resolved(withFragment.ResolveRFC3986(c.ref)); got2 != got {
			t.Errorf("ResolveRFC3986(%q) against %s = %q, against %s = %q", c.ref, base, got, withFragment, got2)
		}
	}
}

// readingsDiffer lists every case found where RFC 1808 and RFC 3986 read a
// reference differently; docs/conformance.md lists the same.
var readingsDiffer = []struct {
	base, ref, rfc1808, rfc3986 string
	why                         string
}{
	{exampleBase, "", "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q",
		"1808 §4 step 2a: the empty reference is the whole base; 3986 §5.2.2: T.fragment = R.fragment"},
	{exampleBase, ";x", "http://a/b/c/d;x", "http://a/b/c/;x",
		"1808 §2.4.5: ';' starts params, the path is empty and inherited (step 5); 3986: ';x' is a path segment"},
	{exampleBase, ";x?y", "http://a/b/c/d;x?y", "http://a/b/c/;x?y", "as ';x'"},
	{exampleBase, ";", "http://a/b/c/d;p?q", "http://a/b/c/;",
		"1808 step 5a, 5b: empty params and query inherit the base's"},
	{exampleBase, "?", "http://a/b/c/d;p?q", "http://a/b/c/d;p?",
		"1808 step 5b: an empty query inherits the base's; 3986: a defined empty query replaces it"},
	{exampleBase, "///g", "http://a/g", "http:///g",
		"1808 step 3: an empty net_loc inherits the base's; 3986: a defined empty authority replaces it"},
	{exampleBase, "../../../g", "http://a/../g", "http://a/g",
		"1808 step 6c keeps a '..' with no segment before it; 3986 §5.2.4 drops it at the root"},
	{exampleBase, "../../../../g", "http://a/../../g", "http://a/g", "as '../../../g'"},
	{exampleBase, "/./g", "http://a/./g", "http://a/g",
		"1808 step 4: an absolute path skips step 6's dot removal; 3986 removes dots from every path"},
	{exampleBase, "/../g", "http://a/../g", "http://a/g", "as '/./g'"},
	{exampleBase, "//g/./h", "http://g/./h", "http://g/h", "1808 step 3 skips to step 7; 3986 removes dots"},
	{exampleBase, "http://a/./g", "http://a/./g", "http://a/g",
		"1808 step 2b: an absolute URL is done; 3986 §5.2.2 removes dots from its path too"},
	{exampleBase, "g;x=1/./y", "http://a/b/c/g;x=1/./y", "http://a/b/c/g;x=1/y",
		"1808 §2.4.5: dots after ';' are params, not path; 3986 §5.4.2"},
	{exampleBase, "g;x=1/../y", "http://a/b/c/g;x=1/../y", "http://a/b/c/y", "as 'g;x=1/./y'"},
	{exampleBase, "..;x", "http://a/b/;x", "http://a/b/c/..;x",
		"1808: the path is '..' and step 6d removes it; 3986: '..;x' is not a dot segment"},
	{exampleBase, ".;x", "http://a/b/c/;x", "http://a/b/c/.;x", "as '..;x'"},
	{"http://a/b;p/c/d", "g", "http://a/g", "http://a/b;p/c/g",
		"1808 §2.4.5: the base's params start at its first ';', so its path is 'b'"},
	{"mailto:x@y", "g", "", "mailto:g",
		"1808 §2.3: mailto, news and telnet URLs are never bases; 3986 §5.2.3 merges"},
}

func TestResolveReadingsDiffer(t *testing.T) {
	for _, c := range readingsDiffer {
		base := mustParse(t, c.base)
		v, err := base.Resolve(c.ref)
		var got string
		if c.rfc1808 == "" {
			var re *ResolveError
			if !errors.As(err, &re) || re.Resolved != "" {
				t.Errorf("RFC 1808: %s + %q = %v, %v; want a refusal (%s)", c.base, c.ref, v, err, c.why)
			}
		} else if got, _ = resolved(v, err); got != c.rfc1808 {
			t.Errorf("RFC 1808: %s + %q = %q, want %q (%s)", c.base, c.ref, got, c.rfc1808, c.why)
		}
		if got, _ = resolved(base.ResolveRFC3986(c.ref)); got != c.rfc3986 {
			t.Errorf("RFC 3986: %s + %q = %q, want %q (%s)", c.base, c.ref, got, c.rfc3986, c.why)
		}
	}
	// Every other example of either RFC resolves the same both ways: the
	// list above is complete for them.
	listed := map[string]bool{}
	for _, c := range readingsDiffer {
		if c.base == exampleBase {
			listed[c.ref] = true
		}
	}
	base := mustParse(t, exampleBase)
	var refs []string
	for _, c := range rfc1808Examples {
		refs = append(refs, c.ref)
	}
	for _, c := range rfc3986Examples {
		refs = append(refs, c.ref)
	}
	for _, ref := range refs {
		if listed[ref] {
			continue
		}
		a, _ := resolved(base.Resolve(ref))
		b, _ := resolved(base.ResolveRFC3986(ref))
		if a != b {
			t.Errorf("%q: RFC 1808 %q, RFC 3986 %q, and readingsDiffer does not list it", ref, a, b)
		}
	}
}

// resolveMoreTests: cases beyond the RFCs' own, each with its reason.
var resolveMoreTests = []struct {
	base, ref, rfc1808, rfc3986 string
}{
	// RFC 1738 §3.1: the "/" between host and path: a base with no path is
	// its root.
	{"http://a", "g", "http://a/g", "http://a/g"},
	{"http://a", "?y", "http://a?y", "http://a?y"},
	// An ftp base: ";type=d" is a param (RFC 1808 §4, last paragraph) and
	// does not change what a relative path means.
	{"ftp://h/pub/dir/;type=d", "f.txt", "ftp://h/pub/dir/f.txt", "ftp://h/pub/dir/f.txt"},
	{"ftp://h/pub/dir;type=d", "f.txt", "ftp://h/pub/f.txt", "ftp://h/pub/f.txt"},
	// A file URL keeps its empty host.
	{"file:///usr/share/doc/x/index.html", "../y/README", "file:///usr/share/doc/y/README", "file:///usr/share/doc/y/README"},
	// An empty fragment written in the reference is kept (nothing the
	// reference says is dropped).
	{exampleBase, "#", "http://a/b/c/d;p?q#", "http://a/b/c/d;p?q#"},
	{exampleBase, "g?", "http://a/b/c/g?", "http://a/b/c/g?"},
	// "./this:that" is a path, not a scheme (RFC 1808 §5.3).
	{exampleBase, "./this:that", "http://a/b/c/this:that", "http://a/b/c/this:that"},
	// A gopher base (RFC 1808 §2.3: the type is the first path segment).
	{"gopher://h/1/pub/", "x", "gopher://h/1/pub/x", "gopher://h/1/pub/x"},
}

func TestResolveMore(t *testing.T) {
	for _, c := range resolveMoreTests {
		base := mustParse(t, c.base)
		if got, _ := resolved(base.Resolve(c.ref)); got != c.rfc1808 {
			t.Errorf("Resolve: %s + %q = %q, want %q", c.base, c.ref, got, c.rfc1808)
		}
		if got, _ := resolved(base.ResolveRFC3986(c.ref)); got != c.rfc3986 {
			t.Errorf("ResolveRFC3986: %s + %q = %q, want %q", c.base, c.ref, got, c.rfc3986)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	// RFC 1808 §4 step 1: with no base the reference must be absolute.
	var zero URL
	if v, err := zero.Resolve("http://a/b"); err != nil || v.String() != "http://a/b" {
		t.Errorf("zero base, absolute ref: %v, %v", v, err)
	}
	_, err := zero.Resolve("g")
	var re *ResolveError
	if !errors.As(err, &re) || re.Ref != "g" || re.Base != "" {
		t.Errorf("zero base, relative ref: %v", err)
	}
	if _, err := zero.ResolveRFC3986("g"); err == nil || !strings.Contains(err.Error(), "§5.1") {
		t.Errorf("RFC 3986, zero base, relative ref: %v", err)
	}
	// RFC 1808 §2.3.
	for _, b := range []string{"mailto:x@y", "news:comp.misc", "telnet://h/"} {
		_, err := mustParse(t, b).Resolve("g")
		if err == nil || !strings.Contains(err.Error(), "§2.3") {
			t.Errorf("%s + g: %v, want a §2.3 refusal", b, err)
		}
	}
	// A reference with a space is no URL: the error quotes what was made
	// and wraps Parse's error.
	_, err = mustParse(t, exampleBase).Resolve("a b")
	if !errors.As(err, &re) || re.Resolved != "http://a/b/c/a b" {
		t.Fatalf("Resolve(%q): %v", "a b", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `"http://a/b/c/a b"`) || !strings.Contains(msg, "%20") {
		t.Errorf("message %q does not name the result and the cause", msg)
	}
	// A long input is shown as a window.
	_, err = mustParse(t, exampleBase).Resolve(strings.Repeat("x ", 5000))
	if err == nil || len(err.Error()) > 2000 {
		t.Errorf("message of a long reference is %d bytes", len(err.Error()))
	}
}

// TestResolveParseNoAllocs: Parse's hot path stays allocation-free now that
// resolution builds on it.
func TestResolveParseNoAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = Parse("http://a/b/c/d;p?q#f") }); n != 0 {
		t.Errorf("Parse allocates %v times", n)
	}
}

// FuzzResolve checks properties of both readings: no panic; a result is a
// URL that parses to itself; resolving an absolute URL under RFC 1808
// gives it back unchanged (§4 step 2b); under RFC 3986 a result whose
// scheme begins with a letter is a fixed point (resolving it again gives
// it back).
func FuzzResolve(f *testing.F) {
	for _, c := range rfc1808Examples {
		f.Add(exampleBase, c.ref)
	}
	for _, c := range readingsDiffer {
		f.Add(c.base, c.ref)
	}
	for _, c := range resolveMoreTests {
		f.Add(c.base, c.ref)
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		b, err := Parse(base)
		if err != nil {
			return
		}
		for name, resolve := range map[string]func(string) (URL, error){"Resolve": b.Resolve, "ResolveRFC3986": b.ResolveRFC3986} {
			v, err := resolve(ref)
			if err != nil {
				var re *ResolveError
				if !errors.As(err, &re) {
					t.Fatalf("%s(%q) against %q: error %T %v", name, ref, base, err, err)
				}
				continue
			}
			w, err := Parse(v.String())
			if err != nil || w != v {
				t.Fatalf("%s(%q) against %q = %q, which parses to %v, %v", name, ref, base, v, w, err)
			}
			// A fixed point only where the result's scheme is one RFC 3986
			// knows (§3.1: ALPHA first): "000://A/0", valid under RFC 1738
			// §5, is a relative path to RFC 3986 and to browsers.
			// And only where the base's path has no dot segment: §5.2.2
			// takes the base's path as it is for a reference with an empty
			// path ("#f" against "a:." is "a:.#f"), and removes the dots of
			// an absolute one.
			if sc := v.Scheme(); name == "ResolveRFC3986" && sc != "" && classes[sc[0]]&(classLowalpha|classHialpha) != 0 && !dotSegment(parse3986(base).path) {
				again, err := b.ResolveRFC3986(v.String())
				if err != nil || again != v {
					t.Fatalf("ResolveRFC3986(%q) = %q; resolving that again gives %q, %v", ref, v, again, err)
				}
			}
		}
		if _, err := Parse(ref); err == nil {
			if v, err := b.Resolve(ref); err != nil || v.String() != ref {
				t.Fatalf("Resolve(%q) of an absolute URL against %q = %q, %v", ref, base, v, err)
			}
		}
	})
}

// dotSegment reports whether the path has a "." or ".." segment.
func dotSegment(path string) bool {
	for _, seg := range strings.Split(path, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
