# How much Bitcoin this address can spend on an onramp.
curl -sS --fail-with-body "$GATEWAY_URL/v4/get-max-spendable/bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
