module github.com/rfc1738/rfc1738/benchmarks/xurls

go 1.26.0

require github.com/rfc1738/rfc1738 v0.0.0

require mvdan.cc/xurls/v2 v2.6.0

replace github.com/rfc1738/rfc1738 => ../..
