module github.com/rfc1738/rfc1738

go 1.26
