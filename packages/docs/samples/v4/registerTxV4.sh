# Onramp only: the finalized, signed raw Bitcoin transaction
# that pays the order (not a PSBT, not a txid).
curl -sS --fail-with-body -X PATCH "$GATEWAY_URL/v4/register-tx" \
  -H 'Content-Type: application/json' \
  --data-binary @- <<'JSON'
{
  "onramp": {
    "order_id": "8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12",
    "bitcoin_tx_hex": "02000000000101f7ede8a8acf5b3735f3e98086ea937c5f8a74f209682345491d73a33ac9bfd840100000000ffffffff0340420f00000000001600145623561565065289f97d51b18586cff91bb0adcc0000000000000000226a20fd975a56e488a3ccc30fe83f5af8dbc1d72f6187d6cef013c4e90de3760a9ae95cd81600000000001600148a56839d21a5336d699e9228dfd40fcc085d0da502483045022100e0cf0fd271bfbf64d927c76f8b8dd6a29f29daa6d5acc23c782a9c020bf1c4fb022072f97511de957b34de30117791894162b65c9a3a941e2bf4996ef27e283ed78e012102a78727544748a47ec2b7e309693eb3723d26ac0e6889de4fc73a80027b13970700000000"
  }
}
JSON
