package gopher

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readAttrs(t *testing.T, name string) []Block {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks, err := ParseAttributes(f)
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// A "!" reply captured from pygopherd 3.0.0 (§3.4.6).
func TestParseAttributesItem(t *testing.T) {
	blocks := readAttrs(t, "pygopherd-hello.attrs")
	var names []string
	for _, b := range blocks {
		names = append(names, b.Name)
	}
	if want := []string{"INFO", "ADMIN", "VIEWS", "ABSTRACT"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("blocks %v, want %v", names, want)
	}
	it, err := blocks[0].Item()
	if err != nil || it.Selector != "/hello.txt" || !it.Plus || it.Port != 7071 {
		t.Errorf("+INFO item %+v, %v", it, err)
	}
	if got := blocks[1].Lines; len(got) != 2 || !strings.HasPrefix(got[0], "Admin: ") {
		t.Errorf("+ADMIN lines %q", got)
	}
	if got := blocks[3].Lines; !reflect.DeepEqual(got, []string{"An abstract line."}) {
		t.Errorf("+ABSTRACT lines %q", got)
	}
	views := blocks[2].Views()
	if want := []View{{Type: "text/plain", Size: "<0k>", Bytes: 0}}; !reflect.DeepEqual(views, want) {
		t.Errorf("views %+v, want %+v", views, want)
	}
}

// A "$" reply captured from pygopherd: each item starts with +INFO.
func TestParseAttributesDirectory(t *testing.T) {
	items := SplitItems(readAttrs(t, "pygopherd-dir.attrs"))
	if len(items) != 2 {
		t.Fatalf("%d items, want 2", len(items))
	}
	ask, ok := Find(items[1], "ASK")
	if !ok {
		t.Fatal("second item has no +ASK")
	}
	qs, err := ask.Questions()
	want := []Question{
		{Kind: "Ask", Prompt: "Your name", Defaults: []string{"nobody"}},
		{Kind: "Choose", Prompt: "Colour", Defaults: []string{"red", "green"}},
	}
	if err != nil || !reflect.DeepEqual(qs, want) {
		t.Errorf("questions %+v, %v; want %+v", qs, err, want)
	}
	if _, ok := Find(items[0], "ASK"); ok {
		t.Error("first item has an +ASK block")
	}
}

func TestViews(t *testing.T) {
	b := Block{Name: "VIEWS", Lines: []string{
		"text/plain En_US: <10k>",
		"application/postscript Es_ES: <2M>",
		"image/gif: <512>",
		"application/gopher+-menu:",
		"",
	}}
	want := []View{
		{Type: "text/plain", Language: "En_US", Size: "<10k>", Bytes: 10240},
		{Type: "application/postscript", Language: "Es_ES", Size: "<2M>", Bytes: 2 << 20},
		{Type: "image/gif", Size: "<512>", Bytes: 512},
		{Type: "application/gopher+-menu", Bytes: -1},
	}
	got := b.Views()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("views %+v, want %+v", got, want)
	}
	// §3.4.8: "+application/postscript%20Es_ES" is the Spanish postscript view.
	if got[1].Plus() != "+application/postscript Es_ES" || got[2].Plus() != "+image/gif" {
		t.Errorf("Plus() = %q, %q", got[1].Plus(), got[2].Plus())
	}
}

func TestQuestionsAndFillForm(t *testing.T) {
	b := Block{Name: "ASK", Lines: []string{
		"Note: Fill this in",
		"Ask: Name\tAnonymous",
		"AskP: Password",
		"AskL: Comments",
		"AskF: Save as\t/tmp/x",
		"Select: Subscribe?:1",
		"Choose: Size\tS\tM\tL",
		"ChooseF: File\ta\tb",
	}}
	qs, err := b.Questions()
	if err != nil || len(qs) != 8 {
		t.Fatalf("%+v, %v", qs, err)
	}
	if qs[0].Answerable() || !qs[1].Answerable() {
		t.Error("Note must take no answer, Ask must")
	}
	form, err := FillForm(qs, Answers("Ann", "secret", "line one\nline two", "", "1", "M", "b"))
	want := "+\t1\r\n+-1\r\nAnn\r\nsecret\r\n2\r\nline one\r\nline two\r\n\r\n1\r\nM\r\nb\r\n.\r\n"
	if err != nil || form != want {
		t.Errorf("FillForm = %q, %v\nwant %q", form, err, want)
	}
	// No answer: the first default.
	form, err = FillForm(qs[:2], Answers())
	if want := "+\t1\r\n+-1\r\nAnonymous\r\n.\r\n"; err != nil || form != want {
		t.Errorf("FillForm defaults = %q, %v; want %q", form, err, want)
	}
	// CR, LF in an answer are refused; two lines for a one-line question too.
	for _, bad := range [][]string{{"a\r\nb"}, {"a\nb"}, {"a", "b"}} {
		if _, err := FillForm(qs[1:2], func(int, Question) ([]string, error) { return bad, nil }); err == nil {
			t.Errorf("FillForm accepted %q", bad)
		}
	}
	if _, err := FillForm(qs[3:4], Answers("ok\r\nQUIT")); err == nil {
		t.Error("FillForm accepted CR in an AskL line")
	}
	if _, err := (Block{Lines: []string{"no colon here"}}).Questions(); err == nil {
		t.Error("Questions accepted a line without Kind:")
	}
}

func TestParseAttributesErrors(t *testing.T) {
	for _, in := range []string{
		"stray line before any block\r\n",
		"+NO COLON\r\n",
		"+:\r\n",
	} {
		if _, err := ParseAttributes(strings.NewReader(in)); err == nil {
			t.Errorf("ParseAttributes(%q) accepted it", in)
		}
	}
	long := "+INFO: " + strings.Repeat("x", DefaultMaxLineLength+1) + "\r\n"
	if _, err := ParseAttributes(strings.NewReader(long)); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("long line: %v, want ErrLineTooLong", err)
	}
	// A "." ends the reply ("+-1" attribute replies).
	blocks, err := ParseAttributes(strings.NewReader("+-1\r\n+ABSTRACT:\r\n x\r\n.\r\n+AFTER:\r\n"))
	if err != nil || len(blocks) != 1 {
		t.Errorf("dot-terminated: %+v, %v", blocks, err)
	}
}

func FuzzParseAttributes(f *testing.F) {
	for _, name := range []string{"pygopherd-hello.attrs", "pygopherd-dir.attrs"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("+ASK:\n Ask: a\tb\n Choose: c\n+VIEWS:\n x/y z: <1k>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const maxLine, maxLines = 128, 32
		blocks, err := parseAttributes(bufio.NewReader(bytes.NewReader(data)), maxLine, maxLines, 4096, nil)
		var pe *ProtocolError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error type %T: %v", err, err)
		}
		lines := 0
		for _, b := range blocks {
			lines += 1 + len(b.Lines)
			if len(b.Value) > maxLine {
				t.Fatalf("value of %d bytes, bound %d", len(b.Value), maxLine)
			}
			for _, v := range b.Views() {
				if v.Bytes < -1 {
					t.Fatalf("negative size %+v", v)
				}
			}
			if qs, err := b.Questions(); err == nil {
				// Filling with defaults never panics; the form it makes is a form.
				if form, err := FillForm(qs, Answers()); err == nil && !IsForm(form) {
					t.Fatalf("FillForm made %q, not a §3.4.9 form", form)
				}
			}
		}
		if lines > maxLines {
			t.Fatalf("%d lines kept, bound %d", lines, maxLines)
		}
	})
}
