//go:build !unix

package testserver

import "testing"

// INNServer is INN running on 127.0.0.1 for one test (unix only).
type INNServer struct {
	Addr  string
	Host  string
	Port  int
	Group string
	Log   string
}

// INNArticle is an article for Post.
type INNArticle struct {
	MessageID, Subject, From, Body string
}

// INNGroup is the group INN serves for tests.
const INNGroup = "local.test"

// INN is unavailable off unix: INN and flock(2) are unix things.
func INN(t testing.TB) *INNServer {
	t.Helper()
	Unavailable(t, "INN runs on unix only")
	return nil
}

// FreshMessageID returns a Message-ID INN has never seen.
func FreshMessageID(tag string) string { return "<" + tag + "@inn-ci.internal>" }

// Post is unavailable off unix.
func (s *INNServer) Post(t testing.TB, a INNArticle) {
	t.Helper()
	Unavailable(t, "INN runs on unix only")
}
