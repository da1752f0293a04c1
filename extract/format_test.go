package extract

import (
	"bufio"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/testenv"
)

// formatCorpus is every URL of the test corpus: the RFC's own, those of
// the rule table, and the real URL lists of ../shared/bench/urls.
func formatCorpus(t *testing.T) (small, lists []string) {
	small = append(small, rfcURLs...)
	for _, tt := range ruleTests {
		for _, w := range tt.want {
			small = append(small, w.url)
		}
	}
	for _, name := range []string{"kasztp.txt", "node_files.txt", "isaacs_files.txt"} {
		f, err := os.Open(testenv.SharedFile(t, "bench/urls/"+name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lists = append(lists, sc.Text())
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return small, lists
}

// TestFormatRoundTrip is the writer's property: for every URL Format
// takes, extract gives back exactly that URL from the formatted text,
// and no line is longer than the width unless it holds a run with no
// break the Appendix allows that would have fitted; no line ends after a
// '-' or inside a %XX escape. The RFC's and the table's URLs are written
// at every width from 20 to 100, the URL lists at one width each, in
// turn over the same range.
func TestFormatRoundTrip(t *testing.T) {
	small, lists := formatCorpus(t)
	formatted, refused := 0, 0
	check := func(u string, width int, indent string) {
		text, err := Format(u, width, indent)
		if err != nil {
			var e *FormatError
			if !errors.As(err, &e) || e.URL != u {
				t.Fatalf("Format(%q): error %v is not a *FormatError on the input", u, err)
			}
			// Format writes every URL §5 allows: a valid one has no
			// whitespace, '<', '>' or 8-bit octet.
			if rfc1738.Valid(u) {
				t.Fatalf("Format(%q) refused a valid URL: %v", u, err)
			}
			refused++
			return
		}
		formatted++
		ms := All(text)
		if len(ms) != 1 || ms[0].URL != u || ms[0].Form != URLBracket || len(ms[0].Notes) != 0 {
			t.Fatalf("Format(%q, %d) =\n%s\nextract gives %+v", u, width, text, ms)
		}
		lines := strings.Split(text, "\n")
		start := 0 // index in u of the line's first byte
		for k, line := range lines {
			lead := len("<URL:")
			if k > 0 {
				lead = columns(indent)
			}
			chunk := strings.TrimSuffix(strings.TrimPrefix(line[len(line)-len(strings.TrimLeft(line, " \t")):], "<URL:"), ">")
			if k > 0 && !strings.HasPrefix(line, indent) {
				t.Fatalf("Format(%q, %d): line %d does not start with the indent:\n%s", u, width, k+1, text)
			}
			if k < len(lines)-1 && (strings.HasSuffix(chunk, "-") || strings.HasSuffix(chunk, "%") || len(chunk) > 1 && chunk[len(chunk)-2] == '%') {
				t.Fatalf("Format(%q, %d): line %d breaks after '-' or in an escape:\n%s", u, width, k+1, text)
			}
			if cols := lead + len(chunk) + len(line) - len(strings.TrimSuffix(line, ">")); cols > width {
				first := strings.Index(u, ":") + 1
				if strings.HasPrefix(u[first:], "//") {
					first += 2
				}
				for p := start + 1; p < start+len(chunk) && lead+p-start <= width; p++ {
					if breakAllowed(u, first, p) {
						t.Fatalf("Format(%q, %d): line %d is %d columns, but could break after %q:\n%s", u, width, k+1, cols, u[start:p], text)
					}
				}
			}
			start += len(chunk)
		}
	}
	for _, u := range small {
		for width := 20; width <= 100; width++ {
			check(u, width, "   ")
		}
	}
	for i, u := range lists {
		check(u, 20+i%81, []string{"", "  ", "\t"}[i%3])
	}
	t.Logf("%d formatted, %d refused (whitespace, '<', '>', 8-bit or no scheme)", formatted, refused)
	if formatted < len(small)*81 {
		t.Errorf("only %d of %d formatted", formatted, len(small)*81+len(lists))
	}
}

// formatTests: Format's choices, each with its rule.
var formatTests = []struct {
	url    string
	width  int
	indent string
	want   string
}{
	// Fits: one line.
	{"ftp://ds.internic.net/rfc", 72, "  ", "<URL:ftp://ds.internic.net/rfc>"},
	// Appendix: a fragment stays inside the brackets; breaks after
	// '/' and '.' are preferred.
	{"http://ds.internic.net/instructions/overview.html#WARNING", 40, "  ",
		"<URL:http://ds.internic.net/\n  instructions/overview.html#WARNING>"},
	// Never after '-' (Appendix): before it.
	{"http://a.org/draft-ietf-uri-url-08.txt", 20, " ",
		"<URL:http://a.org/\n draft-ietf-uri-url\n -08.txt>"},
	// Never inside %XX.
	{"ftp://h.org/%2Fetc/%2Fx%2Fy%2Fz", 26, "",
		"<URL:ftp://h.org/%2Fetc/\n%2Fx%2Fy%2Fz>"},
	// An unbreakable run overflows to the first allowed break.
	{"http://a.org/" + strings.Repeat("-", 24) + "x/y", 20, " ",
		"<URL:http://a.org/\n " + strings.Repeat("-", 24) + "x\n /y>"},
	// A tab indents to column 8.
	{"http://a.org/one/two/three", 22, "\t", "<URL:http://a.org/one/\n\ttwo/three>"},
	// Exactly the width, '>' included: one line.
	{"http://a.org/abc", 22, "", "<URL:http://a.org/abc>"},
	// Never inside the scheme and its "//": a long scheme's line
	// overflows to the first break after "//x".
	{"abcdefghijklmn://x/y", 20, "", "<URL:abcdefghijklmn://x\n/y>"},
	// A run with no allowed break up to the end (a '-' before each
	// octet) is the last line, however long.
	{"http://a.org/" + strings.Repeat("-", 30), 20, " ", "<URL:http://a.org/\n " + strings.Repeat("-", 30) + ">"},
	// The narrowest width, and an indent of exactly half the width.
	{"x:y", 7, "", "<URL:x:y>"},
	{"http://a.org/abcdefghijkl", 20, strings.Repeat(" ", 10), "<URL:http://a.org/\n          abcdefghij\n          kl>"},
	// A preferred break that leaves the line exactly half full.
	{"http://ab/cdefghijklmnopqrstuvwxyz", 25, "", "<URL:http://ab/\ncdefghijklmnopqrstuvwxyz>"},
	// On a later line, half full counts from the line's start: the
	// '/' after "ab" is too early.
	{"http://a.org/xxxxxx/ab/" + strings.Repeat("c", 23), 25, "", "<URL:http://a.org/xxxxxx/\nab/" + strings.Repeat("c", 22) + "\nc>"},
	// Never right after "//", even when nothing else fits.
	{"http://abc/def", 10, "", "<URL:http://a\nbc/def>"},
	// One octet too long: the break leaves it for the next line,
	// never an empty line before the '>'.
	{"http://abcdefghij", 22, "", "<URL:http://abcdefghi\nj>"},
	// The longest text extract takes by default: 8192 bytes.
	{"http://a.org/" + strings.Repeat("a", DefaultMaxLength-19), DefaultMaxLength, "", "<URL:http://a.org/" + strings.Repeat("a", DefaultMaxLength-19) + ">"},
}

func TestFormat(t *testing.T) {
	for _, tt := range formatTests {
		got, err := Format(tt.url, tt.width, tt.indent)
		if err != nil || got != tt.want {
			t.Errorf("Format(%q, %d, %q) =\n%s\n(%v), want\n%s", tt.url, tt.width, tt.indent, got, err, tt.want)
		}
	}
}

func TestFormatErrors(t *testing.T) {
	tests := []struct {
		url    string
		width  int
		indent string
		offset int
	}{
		{"http://a.org/a b", 72, "", 14},                  // Appendix: whitespace only to break lines
		{"http://a.org/<x>", 72, "", 13},                  // the wrapper's own delimiter
		{"http://a.org/caf\xc3\xa9", 72, "", 16},          // §2.2: encode 8-bit octets first
		{"uri@bunyip.com", 72, "", 0},                     // no scheme
		{"http://", 72, "", 0},                            // no schemepart, and §3.3 wants a host
		{"1ab", 72, "", 0},                                // no ':'
		{"http://a.org/", 72, "--", 0},                    // the indent is whitespace
		{"http://a.org/", 6, "", 0},                       // too narrow for <URL:x>
		{"http://a.org/", 20, strings.Repeat(" ", 11), 0}, // an indent past half the width
		{"http://a.org/\x7f", 72, "", 13},                 // DEL is a control (§2.2)
		{"%41:x", 72, "", 0},                              // §5: a scheme is made of scheme octets
		// One byte longer than extract takes by default.
		{"http://a.org/" + strings.Repeat("a", DefaultMaxLength-18), DefaultMaxLength, "", 0},
	}
	for _, tt := range tests {
		got, err := Format(tt.url, tt.width, tt.indent)
		var e *FormatError
		if !errors.As(err, &e) || e.Offset != tt.offset {
			t.Errorf("Format(%q, %d, %q) = %q, %v; want an error at offset %d", tt.url, tt.width, tt.indent, got, err, tt.offset)
		}
	}
}

// TestFormatErrorText: a FormatError names the URL, the offset and why.
func TestFormatErrorText(t *testing.T) {
	_, err := Format("http://a.org/a b", 72, "")
	want := `extract: format "http://a.org/a b": offset 14: cannot stand inside <URL:…> unencoded; encode it first (§2.2, Appendix)`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestFormatAllocs: Format sizes its output once, from the URL, the width
// and the indent: one allocation of about the result's size, whatever
// the number of lines.
func TestFormatAllocs(t *testing.T) {
	long := "http://a.org/" + strings.Repeat("abcdefghij", 50)
	tests := []struct {
		url    string
		width  int
		indent string
	}{
		{long, 40, "\t\t"},
		{long, 20, "  "},
		{long, 72, "        "},
		{"http://a.org/" + strings.Repeat("a/", 250), 30, "    "},
	}
	for _, tt := range tests {
		text, err := Format(tt.url, tt.width, tt.indent)
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(10, func() { Format(tt.url, tt.width, tt.indent) }); a != 1 {
			t.Errorf("Format(%d bytes, %d, %q): %v allocations, want 1", len(tt.url), tt.width, tt.indent, a)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			Format(tt.url, tt.width, tt.indent)
		}
		runtime.ReadMemStats(&after)
		if n := (after.TotalAlloc - before.TotalAlloc) / 10; n > uint64(2*len(text)) {
			t.Errorf("Format(%d bytes, %d, %q): %d bytes allocated for %d bytes of text", len(tt.url), tt.width, tt.indent, n, len(text))
		}
	}
}
