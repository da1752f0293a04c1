package gopher

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Block is one Gopher+ attribute block of a "!" or "$" reply
// (RFC 1738 §3.4.6): a "+NAME:" line, the text after the colon on that line
// (for +INFO, the item's menu line) and the block's lines, which start with
// a space on the wire.
type Block struct {
	Name  string   // without "+" and ":", e.g. "INFO", "ADMIN", "VIEWS", "ABSTRACT", "ASK"
	Value string   // text after "+NAME:" on the same line, one leading space removed
	Lines []string // the following lines, each with its leading space removed
}

// ParseAttributes parses the body of a Gopher+ attribute reply ("!" for one
// item, "$" for every item of a directory; §3.4.6, §3.4.7). A leading
// Gopher+ status line ("+-1", "+-2", "+N") is skipped if present, and a lone
// "." ends the reply. Lines are bounded by DefaultMaxLineLength and the
// reply by DefaultMaxMenuItems lines and DefaultMaxMenuBytes bytes.
func ParseAttributes(r io.Reader) ([]Block, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 4096)
	}
	return parseAttributes(br, DefaultMaxLineLength, DefaultMaxMenuItems, DefaultMaxMenuBytes, nil)
}

func parseAttributes(br *bufio.Reader, maxLine, maxLines int, maxBytes int64, trace func(byte, string)) ([]Block, error) {
	var blocks []Block
	var read int64
	for n := 1; ; n++ {
		line, size, err := readLineN(br, maxLine)
		if err == io.EOF {
			return blocks, nil
		}
		if err != nil {
			return blocks, &ProtocolError{Op: "read attributes", Line: n, Err: err}
		}
		if read += int64(size); read > maxBytes {
			return blocks, &ProtocolError{Op: "read attributes", Line: n,
				Err: fmt.Errorf("more than %d bytes: %w", maxBytes, ErrTooLarge)}
		}
		if n > maxLines {
			return blocks, &ProtocolError{Op: "read attributes", Line: n,
				Err: fmt.Errorf("more than %d lines: %w", maxLines, ErrTooManyItems)}
		}
		if trace != nil {
			trace('<', line)
		}
		switch {
		case line == ".":
			return blocks, nil
		case n == 1 && isStatusLine(line):
			continue
		case strings.HasPrefix(line, "+"):
			name, value, found := strings.Cut(line[1:], ":")
			if !found || name == "" || strings.ContainsAny(name, " \t") {
				return blocks, &ProtocolError{Op: "read attributes", Line: n, Text: shorten(line),
					Err: fmt.Errorf("want +NAME: to start a block")}
			}
			blocks = append(blocks, Block{Name: name, Value: strings.TrimPrefix(value, " ")})
		case len(blocks) == 0:
			if line == "" {
				continue
			}
			return blocks, &ProtocolError{Op: "read attributes", Line: n, Text: shorten(line),
				Err: fmt.Errorf("line outside an attribute block")}
		default:
			b := &blocks[len(blocks)-1]
			b.Lines = append(b.Lines, strings.TrimPrefix(line, " "))
		}
	}
}

// isStatusLine reports whether s is a Gopher+ status line: "+" or "-"
// followed by "-1", "-2" or a decimal length.
func isStatusLine(s string) bool {
	_, _, ok := parseStatus(s)
	return ok
}

func parseStatus(s string) (sign byte, n int64, ok bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(s[1:], 10, 64)
	if err != nil || n < -2 || s[1] == '+' {
		return 0, 0, false
	}
	return s[0], n, true
}

// SplitItems groups the blocks of a "$" reply by item: each item's blocks
// start with its +INFO block (§3.4.6). Blocks before the first +INFO form a
// group of their own.
func SplitItems(blocks []Block) [][]Block {
	var groups [][]Block
	for i, b := range blocks {
		if b.Name == "INFO" || i == 0 {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], b)
	}
	return groups
}

// Find returns the first block with the given name (without "+"), and
// whether there was one.
func Find(blocks []Block, name string) (Block, bool) {
	for _, b := range blocks {
		if b.Name == name {
			return b, true
		}
	}
	return Block{}, false
}

// Item parses a +INFO block's value, a menu line with the Gopher+ fifth
// field.
func (b Block) Item() (Item, error) {
	return ParseItem(b.Value)
}

// View is one entry of a +VIEWS block: a representation of the item
// (RFC 1738 §3.4.8), written "mime/type Lang: <size>".
type View struct {
	Type     string // MIME type, e.g. "text/plain"
	Language string // e.g. "En_US"; may be empty
	Size     string // as written, e.g. "<10k>"; may be empty
	Bytes    int64  // Size in bytes ("k" = 1024, "M" = 1024k), -1 if unknown
}

// Plus returns the Gopher+ string that asks for this view (§3.4.8):
// "+" view, a space and the language if there is one.
func (v View) Plus() string {
	if v.Language == "" {
		return "+" + v.Type
	}
	return "+" + v.Type + " " + v.Language
}

// Views parses the lines of a +VIEWS block. Lines that name no view are
// skipped.
func (b Block) Views() []View {
	var views []View
	for _, l := range b.Lines {
		spec, size, _ := strings.Cut(l, ":")
		f := strings.Fields(spec)
		if len(f) == 0 {
			continue
		}
		v := View{Type: f[0], Language: strings.Join(f[1:], " "), Size: strings.TrimSpace(size), Bytes: -1}
		v.Bytes = viewBytes(v.Size)
		views = append(views, v)
	}
	return views
}

func viewBytes(s string) int64 {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1024, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1024*1024, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return -1
	}
	return n * mult
}

// Question is one line of a +ASK block (§3.4.5): Kind is what precedes the
// colon ("Ask", "AskP" password, "AskL" multi-line, "AskF" file name,
// "Select" check box, "Choose"/"ChooseF" one of several, "Note" text only),
// Prompt the text after it, and Defaults the TAB-separated values that
// follow: the default answer, or the choices of a Choose.
type Question struct {
	Kind     string
	Prompt   string
	Defaults []string
}

// Answerable reports whether the question takes an answer; a Note only
// shows text.
func (q Question) Answerable() bool { return q.Kind != "Note" }

// Questions parses the lines of a +ASK block.
func (b Block) Questions() ([]Question, error) {
	var qs []Question
	for i, l := range b.Lines {
		kind, rest, found := strings.Cut(l, ":")
		if !found || kind == "" || strings.ContainsAny(kind, " \t") {
			return qs, &ProtocolError{Op: "read +ASK", Line: i + 1, Text: shorten(l),
				Err: fmt.Errorf("want Kind: prompt")}
		}
		parts := strings.Split(strings.TrimPrefix(rest, " "), "\t")
		qs = append(qs, Question{Kind: kind, Prompt: parts[0], Defaults: parts[1:]})
	}
	return qs, nil
}

// FillForm asks answer for every answerable question, in order, and builds
// the §3.4.9 filled-form Gopher+ string from the answers (see FormString).
// answer returns the answer's lines: exactly one for every kind but AskL,
// whose answer is sent as a line with the number of lines followed by the
// lines (the Gopher+ layout of a multi-line answer); no lines means the
// first default (or an empty value). Notes are skipped: they take no answer.
// A line with CR, LF, TAB or NUL is refused.
func FillForm(qs []Question, answer func(i int, q Question) ([]string, error)) (string, error) {
	var values []string
	for i, q := range qs {
		if !q.Answerable() {
			continue
		}
		lines, err := answer(i, q)
		if err != nil {
			return "", fmt.Errorf("gopher: answer to %s %q: %w", q.Kind, q.Prompt, err)
		}
		if q.Kind == "AskL" {
			values = append(values, strconv.Itoa(len(lines)))
			values = append(values, lines...)
			continue
		}
		switch len(lines) {
		case 0:
			v := ""
			if len(q.Defaults) > 0 {
				v = q.Defaults[0]
			}
			values = append(values, v)
		case 1:
			values = append(values, lines[0])
		default:
			return "", fmt.Errorf("gopher: answer to %s %q: %d lines, want one", q.Kind, q.Prompt, len(lines))
		}
	}
	return FormString(values...)
}

// Answers returns an answer function for FillForm that gives the k-th
// answerable question the k-th value; an AskL value is split into lines at
// "\n". Missing values mean the default.
func Answers(values ...string) func(i int, q Question) ([]string, error) {
	k := 0
	return func(i int, q Question) ([]string, error) {
		if k >= len(values) {
			return nil, nil
		}
		v := values[k]
		k++
		if q.Kind == "AskL" {
			return strings.Split(v, "\n"), nil
		}
		return []string{v}, nil
	}
}
