#!/usr/bin/env bash
# facts-certs.sh - throwaway PKI for the runtime SSL facts: CA, server cert (localhost),
# client certs (good + revoked) with CRL, backend certs (wrong name, expired).
set -e
D=${1:-/tmp/hf-facts/pki}
rm -rf "$D"; mkdir -p "$D/newcerts" "$D/crl"; cd "$D"
: > index.txt; echo 1000 > serial; echo 1000 > crlnumber
cat > ca.cnf <<'EOF'
[ca]
default_ca = CA_default
[CA_default]
dir = .
database = ./index.txt
new_certs_dir = ./newcerts
serial = ./serial
crlnumber = ./crlnumber
default_md = sha256
default_days = 30
default_crl_days = 30
policy = pol
copy_extensions = copy
unique_subject = no
[pol]
commonName = supplied
[req]
distinguished_name = dn
[dn]
[v3_ca]
basicConstraints = critical,CA:true
keyUsage = keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
q() { "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; "$@"; }; }
q openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj /CN=facts-ca -config ca.cnf -extensions v3_ca
mk() { # name subj [san] [startdate enddate]
  local n=$1 subj=$2 san=$3
  q openssl req -newkey rsa:2048 -nodes -keyout $n.key -out $n.csr -subj "$subj" ${san:+-addext "subjectAltName=$san"}
  if [ -n "$4" ]; then
    q openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -in $n.csr -out $n.crt -startdate "$4" -enddate "$5"
  else
    q openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -in $n.csr -out $n.crt
  fi
}
mk server /CN=localhost "DNS:localhost,IP:127.0.0.1"
mk client-good /CN=client-good
mk client-revoked /CN=client-revoked
mk backend-wrongname /CN=wrong.example "DNS:wrong.example"
mk backend-expired /CN=localhost "DNS:localhost,IP:127.0.0.1" 20200101000000Z 20200201000000Z
q openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -revoke client-revoked.crt
q openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -gencrl -out crl/ca.crl
# hashed CRL dir for SSLCARevocationPath (<hash>.r0)
h=$(openssl crl -in crl/ca.crl -noout -hash); ln -sf ca.crl crl/$h.r0
echo "PKI in $D"; ls "$D" "$D/crl"
