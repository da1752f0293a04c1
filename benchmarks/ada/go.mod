module github.com/rfc1738/rfc1738/benchmarks/ada

go 1.26.0

require github.com/rfc1738/rfc1738 v0.0.0

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/rfc1738/rfc1738 => ../..
