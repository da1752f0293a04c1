package linkcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/rfc1738/rfc1738/linkcheck"
)

// A Run checks a list of URLs, each distinct one once, and reports where
// each occurs.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/here" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	checker := &linkcheck.Checker{} // the settings of access.NewClient
	defer checker.Close()
	run := &linkcheck.Run{Checker: checker, PerHost: 2}
	run.Add(srv.URL+"/here", linkcheck.Place{File: "index.txt", Line: 1, Column: 1})
	run.Add(srv.URL+"/%68ere", linkcheck.Place{File: "index.txt", Line: 2, Column: 1}) // §2.2: the same URL
	run.Add(srv.URL+"/gone", linkcheck.Place{File: "index.txt", Line: 3, Column: 1})
	run.Add("http://user@host/", linkcheck.Place{File: "index.txt", Line: 4, Column: 1})
	if err := run.Check(context.Background()); err != nil {
		fmt.Println(err)
	}
	for _, r := range run.Results() {
		fmt.Println(r.Status, len(r.Places), "place(s):", r.Detail)
	}
	// Output:
	// ok 2 place(s): 200 OK
	// broken 1 place(s): 404 Not Found
	// invalid 1 place(s): offset 7: httpurl: an http URL allows no user name or password (§3)
}
