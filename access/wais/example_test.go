package wais_test

import (
	"fmt"

	"github.com/rfc1738/rfc1738/access/wais"
)

// The APDUs that wais://host/Default?computer+water makes a client send,
// without a network: what a plan prints.
func Example() {
	fmt.Println(wais.NewInitRequest(wais.Config{}))
	req, err := wais.NewSearchRequest("Default", "computer+water")
	if err != nil {
		panic(err)
	}
	fmt.Println(req)
	fmt.Println(wais.NewPresentRequest(req.ResultSetName, 1, 10, wais.SUTRS))
	doc, _ := wais.NewDocumentRequest("Default", "TEXT", "0 2 /docs/a.txt")
	fmt.Println(doc.Query)
	// Output:
	// InitializeRequest{version=2,3 options=search,present preferredMessageSize=1048576 exceptionalRecordSize=1048576 implementation="rfc1738"/"rfc1738 wais"/"1"}
	// SearchRequest{resultSet="default" replace=true databases=Default query=type-1 @attrset 1.2.840.10003.3.1 @and "computer" "water" smallSetUpperBound=0 largeSetLowerBound=1 mediumSetPresentNumber=0}
	// PresentRequest{resultSet="default" start=1 count=10 elementSet=F syntax=SUTRS}
	// type-0 WAISDocumentQuery{type="TEXT" docid="0 2 /docs/a.txt"}
}
