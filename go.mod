module github.com/rfc1738/rfc1738

go 1.26.0

require (
	github.com/schollz/progressbar/v3 v3.19.0
	golang.org/x/term v0.47.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
