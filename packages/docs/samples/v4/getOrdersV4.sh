# One page of the address's orders.
# For the next page, pass its nextCursor as cursor.
curl -sS --fail-with-body --get "$GATEWAY_URL/v4/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F" \
  --data-urlencode 'limit=20'
