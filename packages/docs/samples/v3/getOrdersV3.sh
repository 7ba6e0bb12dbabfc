# V3, kept for existing integrations; /v4/get-orders/{user_address}
# takes the same cursor and limit.
curl -sS --fail-with-body --get "$GATEWAY_URL/v3/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F" \
  --data-urlencode 'limit=20'
