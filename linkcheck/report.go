package linkcheck

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Format is a report format.
type Format uint8

// The report formats.
const (
	Text     Format = iota // FILE:LINE:COL: broken: URL: detail, grouped, then totals
	JSON                   // JSON Lines, one object per distinct URL
	CSV                    // one row per distinct URL, with a header
	JUnit                  // JUnit XML: a test case per URL, broken ones failing
	Markdown               // a table of what is not ok, then totals
	GitHub                 // GitHub Actions workflow commands (::error file=…,line=…,col=…::…)
	SARIF                  // SARIF 2.1.0, for code scanning
)

// ParseFormat reads a format name: text, json, csv, junit, markdown,
// github or sarif.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if n == s {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (text, json, csv, junit, markdown, github, sarif)", s)
}

var formatNames = [...]string{"text", "json", "csv", "junit", "markdown", "github", "sarif"}

// Totals counts the results by status.
type Totals [5]int

// Count returns the totals of rs.
func Count(rs []Result) Totals {
	var t Totals
	for _, r := range rs {
		t[r.Status]++
	}
	return t
}

// String returns "N URLs: a ok, b broken, c invalid, d skipped", and
// ", e broken fragments" when there are any.
func (t Totals) String() string {
	s := fmt.Sprintf("%d URLs: %d ok, %d broken, %d invalid, %d skipped",
		t[OK]+t[Broken]+t[Invalid]+t[Skipped]+t[BrokenFragment], t[OK], t[Broken], t[Invalid], t[Skipped])
	if t[BrokenFragment] > 0 {
		s += fmt.Sprintf(", %d broken fragments", t[BrokenFragment])
	}
	return s
}

// Failed reports whether something is broken, invalid or a broken
// fragment: what makes the exit status 1.
func (t Totals) Failed() bool { return t[Broken]+t[Invalid]+t[BrokenFragment] > 0 }

// Report writes rs in format f. Text shows every place of each broken and
// invalid URL (and of skipped and ok ones when verbose), grouped by
// verdict, then the totals; note, when not empty, ends the totals line
// (e.g. "interrupted").
type Report struct {
	Format  Format
	Verbose bool
	Elapsed time.Duration
	Note    string
}

// Write writes the report of rs to w.
func (rep Report) Write(w io.Writer, rs []Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch rep.Format {
	case JSON:
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		for _, r := range rs {
			if err = enc.Encode(r); err != nil {
				break
			}
		}
	case CSV:
		err = writeCSV(bw, rs)
	case JUnit:
		err = rep.writeJUnit(bw, rs)
	case Markdown:
		rep.writeMarkdown(bw, rs)
	case GitHub:
		rep.writeGitHub(bw, rs)
	case SARIF:
		err = rep.writeSARIF(bw, rs)
	default:
		rep.writeText(bw, rs)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// String formats a place as FILE:LINE:COL, or "argument" for a URL given
// directly.
func (p Place) String() string {
	switch {
	case p.File == "":
		return "argument"
	case p.Line == 0:
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

func (rep Report) writeText(w *bufio.Writer, rs []Result) {
	order := []Status{Broken, BrokenFragment, Invalid}
	if rep.Verbose {
		order = append(order, Skipped, OK)
	}
	for _, st := range order {
		for _, r := range rs {
			if r.Status != st {
				continue
			}
			for _, p := range r.Places {
				fmt.Fprintf(w, "%s: %s: %s: %s\n", p, r.Status, r.URL, r.Detail)
			}
			if len(r.Places) == 0 {
				fmt.Fprintf(w, "%s: %s: %s\n", r.Status, r.URL, r.Detail)
			}
		}
	}
	// Each departure from RFC 1738 once, at the URL's first place: what
	// was read, never a verdict.
	for _, r := range rs {
		for _, warn := range r.Warnings {
			where := "argument"
			if len(r.Places) > 0 {
				where = r.Places[0].String()
			}
			fmt.Fprintf(w, "%s: warning: %s: %s\n", where, r.URL, warn)
		}
	}
	line := Count(rs).String()
	if rep.Elapsed > 0 {
		line += fmt.Sprintf(" in %.2fs", rep.Elapsed.Seconds())
	}
	if rep.Note != "" {
		line += " (" + rep.Note + ")"
	}
	fmt.Fprintln(w, line)
}

func placesString(ps []Place) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

func writeCSV(w io.Writer, rs []Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"url", "result", "detail", "scheme", "places", "elapsed_ms"})
	for _, r := range rs {
		cw.Write([]string{csvCell(r.URL), r.Status.String(), csvCell(r.Detail), r.Scheme, csvCell(placesString(r.Places)),
			strconv.FormatFloat(float64(r.Elapsed.Microseconds())/1000, 'f', 3, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// csvCell neutralises a cell a spreadsheet would read as a formula: one
// that starts with '=', '+', '-' or '@' (or a TAB or CR, which some
// spreadsheets skip before those) gets a leading "'", as OWASP's advice
// on CSV injection says. A server's status text or a file name is data,
// never a formula.
func csvCell(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit: a broken URL is a failure, an invalid one an error.
func (rep Report) writeJUnit(w io.Writer, rs []Result) error {
	t := Count(rs)
	s := junitSuite{Name: "linkcheck", Tests: len(rs), Failures: t[Broken] + t[BrokenFragment], Errors: t[Invalid], Skipped: t[Skipped],
		Time: fmt.Sprintf("%.3f", rep.Elapsed.Seconds())}
	for _, r := range rs {
		c := junitCase{Name: r.URL, Classname: "linkcheck." + r.Scheme, Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
		m := &junitMessage{Message: r.Detail, Text: placesString(r.Places)}
		switch r.Status {
		case Broken, BrokenFragment:
			c.Failure = m
		case Invalid:
			c.Error = m
		case Skipped:
			c.Skipped = m
		}
		s.Cases = append(s.Cases, c)
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeMarkdown writes a table of the URLs that are not ok, for an issue
// or a pull request, then the totals.
func (rep Report) writeMarkdown(w io.Writer, rs []Result) {
	// A cell is text, never markup: '|' would end it, a line break the
	// row, and '<', '>' and '&' in a server's status text would be HTML
	// to a renderer. Inside the URL's code span only '|' and '`' matter
	// (CommonMark shows the rest as written).
	code := strings.NewReplacer("|", `\|`, "`", "'", "\r", " ", "\n", " ")
	cell := strings.NewReplacer("|", `\|`, "`", "'", "\r", " ", "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;")
	fmt.Fprintln(w, "| result | URL | detail | places |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, r := range rs {
		if r.Status == OK && !rep.Verbose {
			continue
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", r.Status, code.Replace(r.URL), cell.Replace(r.Detail), cell.Replace(placesString(r.Places)))
	}
	fmt.Fprintf(w, "\n%s\n", Count(rs))
}
