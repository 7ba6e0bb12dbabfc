# Onramp: 0.01 BTC (1000000 sats) to wrapped BTC on BOB.
# Each address is encoded for its own chain: recipient and
# dstToken on BOB (EVM hex), sender and refundAddress on Bitcoin.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body --get "$GATEWAY_URL/v4/get-quote" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  --data-urlencode 'srcChain=bitcoin' \
  --data-urlencode 'dstChain=bob' \
  --data-urlencode 'srcToken=0x0000000000000000000000000000000000000000' \
  --data-urlencode 'dstToken=0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3' \
  --data-urlencode 'amount=1000000' \
  --data-urlencode 'recipient=0x71C7656EC7ab88b098defB751B7401B5f6d8976F' \
  --data-urlencode 'sender=bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged' \
  --data-urlencode 'refundAddress=bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged' \
  --data-urlencode 'affiliates=0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045:25'
