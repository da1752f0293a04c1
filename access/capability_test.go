package access

import (
	"context"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// listingHandler is echoHandler with a List: its entries are the plan's
// steps, one of them unreadable when its argument is "bad".
type listingHandler struct{ echoHandler }

func (listingHandler) List(ctx context.Context, c *Client, p *Plan) (*Entries, error) {
	i := 0
	return NewEntries(func() (Entry, error) {
		if i == len(p.Steps) {
			return Entry{}, io.EOF
		}
		s := p.Steps[i]
		i++
		if s.Arg == "bad" {
			return Entry{}, &LineError{Line: s.Arg, Reason: "no name"}
		}
		return Entry{Name: s.Arg, Kind: KindFile, Size: -1}, nil
	}, nil), nil
}

// TestCapabilities: a capability is found by interface assertion; a
// handler without it is refused with ErrUnsupported, naming the scheme.
func TestCapabilities(t *testing.T) {
	c := NewClient()
	c.RegisterProtocol("echo", echoHandler{})
	c.RegisterProtocol("lst", listingHandler{})
	ctx := context.Background()
	if _, err := c.Stat(ctx, mustParse(t, "echo://h/a")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Stat of a handler without Stat: %v, want ErrUnsupported", err)
	}
	if _, err := c.List(ctx, mustParse(t, "echo://h/a")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("List of a handler without List: %v, want ErrUnsupported", err)
	}
	for _, tt := range []struct {
		url   string
		names []string
		bad   int
		whole bool
	}{
		{"lst://h/a/b", []string{"a", "b"}, 0, true},
		// One unreadable line: the listing goes on, but it is not whole
		// (a name it may have held cannot be taken for gone).
		{"lst://h/a/bad/b", []string{"a", "b"}, 1, false},
	} {
		ents, err := c.List(ctx, mustParse(t, tt.url))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for {
			e, err := ents.Next()
			var le *LineError
			if errors.As(err, &le) {
				continue
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, e.Name)
		}
		if ents.Whole() {
			t.Errorf("%s: Whole before Close", tt.url)
		}
		if err := ents.Close(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(names, tt.names) || ents.Unreadable() != tt.bad || ents.Whole() != tt.whole {
			t.Errorf("%s: %q, %d unreadable, whole %v; want %q, %d, %v", tt.url, names, ents.Unreadable(), ents.Whole(), tt.names, tt.bad, tt.whole)
		}
	}
}

// TestEntriesCut: a listing that ends in an error, or whose end (Close)
// fails, is not whole.
func TestEntriesCut(t *testing.T) {
	cut := errors.New("connection reset")
	ents := NewEntries(func() (Entry, error) { return Entry{}, cut }, nil)
	if _, err := ents.Next(); err != cut {
		t.Errorf("Next = %v, want the cut", err)
	}
	if ents.Close(); ents.Whole() {
		t.Error("a cut listing is whole")
	}
	ents = NewEntries(func() (Entry, error) { return Entry{}, io.EOF }, func() error { return cut })
	ents.Next()
	if err := ents.Close(); err != cut || ents.Whole() {
		t.Errorf("Close = %v, whole %v; want the final reply's error, not whole", err, ents.Whole())
	}
}

// TestClone: every setting is copied, and a handler registered in the
// clone stays out of the original.
func TestClone(t *testing.T) {
	c := NewClient()
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() || !f.IsZero() {
			continue
		}
		// A non-zero value for every exported setting NewClient left zero.
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("x")
		case reflect.Uint8, reflect.Int:
			f.Set(reflect.ValueOf(1).Convert(f.Type()))
		case reflect.Struct:
			// A setting with settings of its own (TLS): its booleans.
			for k := 0; k < f.NumField(); k++ {
				if sf := f.Field(k); sf.Kind() == reflect.Bool && sf.CanSet() {
					sf.SetBool(true)
				}
			}
		case reflect.Func:
			f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { panic("not called") }))
		default:
			f.Set(reflect.New(f.Type()).Elem())
			if f.Kind() == reflect.Pointer {
				f.Set(reflect.New(f.Type().Elem()))
			}
		}
	}
	d := c.Clone()
	w := reflect.ValueOf(d).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		switch {
		case !v.Type().Field(i).IsExported():
		case v.Field(i).Kind() == reflect.Func:
			if v.Field(i).IsNil() != w.Field(i).IsNil() {
				t.Errorf("Clone lost %s", name)
			}
		case !reflect.DeepEqual(v.Field(i).Interface(), w.Field(i).Interface()):
			t.Errorf("Clone lost %s", name)
		}
	}
	d.RegisterProtocol("echo", echoHandler{})
	if c.Handler("echo") != nil || d.Handler("ftp") == nil {
		t.Error("the clone's registry is not its own copy")
	}
}

// TestGopherList: a menu's items as entries, with what the menu line
// says of each; an unreadable line is reported and the listing goes on,
// not whole.
func TestGopherList(t *testing.T) {
	f := testserver.NewGopherFake(t, gopherReply("0About\t/about.txt\th.example\t70\t+\r\n"+
		"iWelcome\tfake\t(NULL)\t0\r\n"+
		"0Broken\t/x\r\n"+
		"1Docs\t/docs\th.example\t7070\r\n"+
		"hSite\tURL:http://example.org/\th.example\t70\r\n.\r\n"))
	c := NewClient()
	c.AllowAnyPort = true
	ents, err := c.List(context.Background(), mustParse(t, "gopher://"+f.Addr+"/1/"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		e, err := ents.Next()
		var le *LineError
		if errors.As(err, &le) {
			got = append(got, "bad "+le.Line)
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(e.Kind)+" "+e.Name+" "+e.URL+" "+e.Attrs["type"]+e.Attrs["plus"])
	}
	ents.Close()
	want := []string{
		"file About gopher://h.example/0/about.txt 0+",
		"info Welcome  i",
		"bad 0Broken\t/x",
		"directory Docs gopher://h.example:7070/1/docs 1",
		"file Site http://example.org/ h",
	}
	if !reflect.DeepEqual(got, want) || ents.Whole() {
		t.Errorf("entries %q (whole %v), want %q, not whole", got, ents.Whole(), want)
	}
	if _, err := c.List(context.Background(), mustParse(t, "gopher://"+f.Addr+"/0/about.txt")); !errors.Is(err, ErrNotListable) {
		t.Errorf("List of a text item: %v, want ErrNotListable", err)
	}
}
