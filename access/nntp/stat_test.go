package nntp

import "testing"

// RFC 3977 §6.2.4: STAT asks for an article without fetching it; 423 and
// 430 say it is not there.
func TestStat(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.test", Reply: "211 3 1 3 local.test\n"},
		S{Expect: "STAT 3", Reply: "223 3 <x.1@example.com>\n"},
		S{Expect: "STAT 9", Reply: "423 No article with that number\n"},
		S{Expect: "STAT <x.1@example.com>", Reply: "223 0 <x.1@example.com>\n"},
		S{Expect: "STAT <gone@example.com>", Reply: "430 No Such Article Found\n"},
	)
	ctx := ctx5(t)
	if _, err := c.Group(ctx, "local.test"); err != nil {
		t.Fatal(err)
	}
	if id, err := c.Stat(ctx, 3); err != nil || id != "<x.1@example.com>" {
		t.Errorf("Stat(3) = %q, %v", id, err)
	}
	if _, err := c.Stat(ctx, 9); !IsNoSuchArticle(err) {
		t.Errorf("Stat(9) = %v, want a 423", err)
	}
	if id, err := c.StatByID(ctx, "x.1@example.com"); err != nil || id != "<x.1@example.com>" {
		t.Errorf("StatByID = %q, %v", id, err)
	}
	if _, err := c.StatByID(ctx, "gone@example.com"); ReplyCode(err) != CodeNoSuchMessageID {
		t.Errorf("StatByID(gone) = %v, want a 430", err)
	}
	if _, err := c.StatByID(ctx, "a\r\nQUIT"); err == nil {
		t.Error("StatByID sent a CR LF")
	}
	c.Close()
	wantCommands(t, f, "GROUP local.test", "STAT 3", "STAT 9", "STAT <x.1@example.com>", "STAT <gone@example.com>", "QUIT")
}
