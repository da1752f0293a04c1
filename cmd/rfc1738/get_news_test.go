package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// runNewsCLI runs the CLI in-process with the given environment.
func runNewsCLI(t *testing.T, vars map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	status := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return vars[k] }})
	return out.String(), errb.String(), status
}

// TestPlanNews: the plan of news: and nntp: URLs (RFC 1738 §3.6, §3.7),
// where news: goes (--nntp-server, then $NNTPSERVER), and the guards.
func TestPlanNews(t *testing.T) {
	tests := []struct {
		name    string
		vars    map[string]string
		args    []string
		status  int
		stdout  string
		stderr  []string // substrings
		notSeen string   // in neither stream
	}{
		{name: "no server", args: []string{"plan", "news:local.test"}, status: exitUsage,
			stderr: []string{"news:local.test", "--nntp-server", "NNTPSERVER"}},
		{name: "flag", args: []string{"plan", "--nntp-server", "127.0.0.1:1190", "news:local.test"},
			stdout: "GROUP local.test\nOVER <range>\nQUIT\n",
			stderr: []string{"# connect 127.0.0.1:1190\n", "# note: ", "MODE READER"}},
		{name: "env", vars: map[string]string{"NNTPSERVER": "news.example"}, args: []string{"plan", "news:first.1@inn-ci.internal"},
			stdout: "ARTICLE <first.1@inn-ci.internal>\nQUIT\n", stderr: []string{"# connect news.example:119\n"}},
		{name: "flag before env", vars: map[string]string{"NNTPSERVER": "env.example"},
			args:   []string{"plan", "--nntp-server", "flag.example:1119", "news:*"},
			stdout: "LIST ACTIVE\nQUIT\n", stderr: []string{"# connect flag.example:1119\n"}},
		{name: "nntp names its server", args: []string{"plan", "nntp://news.example/comp.lang.c/42"},
			stdout: "GROUP comp.lang.c\nARTICLE 42\nQUIT\n", stderr: []string{"# connect news.example:119\n"}},
		{name: "port warning", args: []string{"plan", "nntp://news.example:1190/local.test"},
			stdout: "GROUP local.test\nOVER <range>\nQUIT\n", stderr: []string{"# warning: port 1190"}},
		{name: "port guard", args: []string{"plan", "nntp://news.example:25/local.test"}, status: exitUsage,
			stderr: []string{"offset 20", "smtp"}},
		{name: "CRLF guard", args: []string{"plan", "--nntp-server", "h", "news:a%0D%0AQUIT@x.org"}, status: exitUsage,
			stderr: []string{"offset 6", "CR"}},
		{name: "credentials", vars: map[string]string{"NNTPUSER": "alice", "NNTPPASS": "s3cret"},
			args:   []string{"plan", "--nntp-server", "h", "news:local.test"},
			stdout: "GROUP local.test\nOVER <range>\nQUIT\n", stderr: []string{"AUTHINFO USER alice", "AUTHINFO PASS <password>"},
			notSeen: "s3cret"},
		{name: "credential flags", args: []string{"plan", "--nntp-server", "h", "--nntp-user", "bob", "--nntp-password", "s3cret", "news:*"},
			stdout: "LIST ACTIVE\nQUIT\n", stderr: []string{"AUTHINFO USER bob"}, notSeen: "s3cret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, status := runNewsCLI(t, tt.vars, tt.args...)
			if status != tt.status {
				t.Errorf("status %d, want %d; stderr:\n%s", status, tt.status, errs)
			}
			if out != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.stdout)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if tt.notSeen != "" && strings.Contains(out+errs, tt.notSeen) {
				t.Errorf("%q shown:\n%s%s", tt.notSeen, out, errs)
			}
		})
	}
}

const newsCLIArticle = "Path: fake!not-for-mail\nFrom: Tester <tester@example.com>\nNewsgroups: local.test\n" +
	"Subject: Dots\nMessage-ID: <dot.1@example.com>\n\nfirst\n..starts with a dot\nlast\n.\n"

// TestGetNewsFake: rfc1738 get against a scripted server: the article as
// it is (dot-unstuffed), -v showing the exchange, --json listings, -o.
func TestGetNewsFake(t *testing.T) {
	f := testserver.NNTPFakeServer(t, "200 fake ready",
		testserver.NNTPStep{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\n" + newsCLIArticle},
	)
	out, errs, status := runCLI(t, "", "get", "-v", "--nntp-server", f.Addr, "news:dot.1@example.com")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errs)
	}
	if !strings.HasSuffix(out, "\n\nfirst\n.starts with a dot\nlast\n") {
		t.Errorf("article:\n%s", out)
	}
	for _, w := range []string{"< 200 fake ready\n", "> ARTICLE <dot.1@example.com>\n", "< 220 0 <dot.1@example.com>\n", "> QUIT\n", "< 205 bye\n"} {
		if !strings.Contains(errs, w) {
			t.Errorf("-v lacks %q:\n%s", w, errs)
		}
	}

	g := testserver.NNTPFakeServer(t, "201 fake ready, no posting",
		testserver.NNTPStep{Expect: "GROUP local.test", Reply: "211 1 7 7 local.test\n"},
		testserver.NNTPStep{Expect: "OVER 7", Reply: "224 ok\n7\tHi\tA <a@x.org>\tSat, 21 Nov 2026 05:00:00 +0000\t<hi.7@x.org>\t\t10\t1\n.\n"},
	)
	file := filepath.Join(t.TempDir(), "group.jsonl")
	out, errs, status = runCLI(t, "", "get", "--json", "--any-port", "-o", file, "nntp://"+g.Addr+"/local.test")
	if status != exitOK || out != "" {
		t.Fatalf("status %d, stdout %q: %s", status, out, errs)
	}
	b, _ := os.ReadFile(file)
	var item map[string]any
	if err := json.Unmarshal(b, &item); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if item["number"] != 7.0 || item["news_url"] != "news:hi.7@x.org" || item["nntp_url"] != "nntp://"+g.Addr+"/local.test/7" {
		t.Errorf("item %v", item)
	}
}

// TestGetNewsFaults: a broken or refusing server ends in a clear error,
// the exit status that says what failed, and no -o file.
func TestGetNewsFaults(t *testing.T) {
	tests := []struct {
		name   string
		url    string
		flags  []string
		steps  []testserver.NNTPStep
		want   []string
		status int
	}{
		{"drop mid-article", "news:dot.1@example.com", nil,
			[]testserver.NNTPStep{{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\nFrom: a@example.com\n\nhalf a bo", Close: true}},
			[]string{"news:dot.1@example.com: reading the article", "unexpected EOF"}, exitNetwork},
		{"stall", "news:dot.1@example.com", []string{"--idle-timeout", "300ms"},
			[]testserver.NNTPStep{{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\nFrom: a@example.com\n", Stall: true}},
			[]string{"nothing arrived for 300ms (--idle-timeout)", "news:dot.1@example.com"}, exitNetwork},
		{"480", "news:local.test", nil,
			[]testserver.NNTPStep{{Expect: "GROUP local.test", Reply: "480 Authentication required\n"}},
			[]string{"demands authentication", "--nntp-user", "480"}, exitAuth},
		{"garbage", "news:*", nil,
			[]testserver.NNTPStep{{Expect: "LIST ACTIVE", Reply: "215 ok\nthis is not an active line\n.\n"}},
			[]string{"news:*", "LIST ACTIVE", "protocol error", "this is not an active line"}, exitProtocol},
		{"411", "news:local.nope", nil,
			[]testserver.NNTPStep{{Expect: "GROUP local.nope", Reply: "411 No such group\n"}},
			[]string{"no such newsgroup", "411"}, exitRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NNTPFakeServer(t, "200 fake ready", tt.steps...)
			dir := t.TempDir()
			file := filepath.Join(dir, "out")
			args := append([]string{"get", "--nntp-server", f.Addr, "-o", file}, tt.flags...)
			_, errs, status := runCLI(t, "", append(args, tt.url)...)
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a failed get left %v", entries)
			}
		})
	}
}

// TestGetNewsINN runs rfc1738 get -v on every URL form against a real INN
// on loopback, with articles the test posts; run with -v to see the
// exchanges.
func TestGetNewsINN(t *testing.T) {
	s := testserver.INN(t)
	id := testserver.FreshMessageID("cli")
	const body = "CLI test body.\n.a line that starts with a dot\n"
	s.Post(t, testserver.INNArticle{MessageID: id, Subject: "CLI test article", Body: body})
	bare := strings.Trim(id, "<>")

	get := func(t *testing.T, args ...string) (string, string, int) {
		t.Helper()
		args = append([]string{"get", "-v", "--nntp-server", s.Addr}, args...)
		out, errs, status := runCLI(t, "", args...)
		t.Logf("$ rfc1738 %s\n%s", strings.Join(args, " "), strings.Join(testserver.Elide(strings.Split(errs, "\n"), 12, 4), "\n"))
		return out, errs, status
	}

	// news:group --json finds the posted article's number.
	var number float64
	t.Run("news:group", func(t *testing.T) {
		out, errs, status := get(t, "--json", "news:"+s.Group)
		if status != exitOK {
			t.Fatalf("status %d", status)
		}
		for line := range strings.Lines(out) {
			var item map[string]any
			if err := json.Unmarshal([]byte(line), &item); err != nil {
				t.Fatalf("%v: %q", err, line)
			}
			if item["message_id"] == id {
				number, _ = item["number"].(float64)
			}
		}
		if number == 0 {
			t.Fatalf("%s not listed:\n%s", id, out)
		}
		if !strings.Contains(errs, "> GROUP "+s.Group+"\n") || !strings.Contains(errs, "> OVER ") {
			t.Errorf("-v:\n%s", errs)
		}
	})
	if number == 0 {
		t.FailNow()
	}
	for _, url := range []string{"news:" + bare, fmt.Sprintf("nntp://127.0.0.1:%d/%s/%d", s.Port, s.Group, int64(number))} {
		t.Run(url, func(t *testing.T) {
			out, _, status := get(t, url)
			if status != exitOK {
				t.Fatalf("status %d", status)
			}
			head, b, _ := strings.Cut(out, "\n\n")
			if b != body || !strings.Contains(head, "Message-ID: "+id+"\n") {
				t.Errorf("article:\n%s", out)
			}
		})
	}
	t.Run("news:*", func(t *testing.T) {
		out, _, status := get(t, "news:*")
		if status != exitOK {
			t.Fatalf("status %d", status)
		}
		if !strings.HasPrefix(out, "GROUP ") || !strings.Contains(out, "\n"+s.Group+" ") || !strings.Contains(out, " news:"+s.Group+" ") {
			t.Errorf("listing:\n%s", out)
		}
	})
	t.Run("missing", func(t *testing.T) {
		for _, tc := range []struct{ url, want string }{
			{"news:local.no-such-group", "no such newsgroup on " + s.Addr},
			{fmt.Sprintf("nntp://127.0.0.1:%d/%s/%d", s.Port, s.Group, int64(number)+1000), "no article with that number in " + s.Group},
			{"news:" + strings.Trim(testserver.FreshMessageID("missing"), "<>"), "no article with that message-id on " + s.Addr},
		} {
			dir := t.TempDir()
			_, errs, status := get(t, "-o", filepath.Join(dir, "out"), tc.url)
			if status != exitRefused || !strings.Contains(errs, tc.want) {
				t.Errorf("get %s: status %d, stderr:\n%s\nwant %q", tc.url, status, errs, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a failed get left %v", entries)
			}
		}
	})
}
