module github.com/rfc1738/rfc1738/benchmarks/getmany

go 1.26.0
