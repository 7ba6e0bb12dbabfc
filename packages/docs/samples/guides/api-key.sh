# The key, when you have one, goes in the Authorization header
# (exactly 32 characters); without one the lower keyless rate
# limit applies.
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v4/get-routes"
