/**
 * Walks ../shared/api-description.md point by point and finds each point in the
 * bundled document: endpoints, parameters, model fields with their types,
 * formats, minimums, required flags and nullability, unions, error codes with
 * their versions, detail shapes, authentication and versioning rules.
 */
import { describe, expect, it } from 'vitest';
import { loadBundle, readOperations } from '@swap-gateway/openapi';
import { codeNames, descriptionAvailable, readDescription } from './helpers/description.js';
import { branches, componentSchema, effective, resolve, types, type Schema } from './helpers/schema.js';

const document = loadBundle('gateway');

// vitest collects a skipped describe's body too, so without the description the body is not declared at all.
(descriptionAvailable ? describe : describe.skip)('the document covers the API description', () => {
  if (!descriptionAvailable) return;
  const { text, sections } = readDescription();
  const section = (heading: string | RegExp) => {
    const found = sections.find((entry) => (typeof heading === 'string' ? entry.heading.startsWith(heading) : heading.test(entry.heading)));
    if (!found) throw new Error(`the description has no section "${heading}"`);
    return found;
  };
  const operation = (method: string, path: string) => {
    const found = (document.paths[path] as Record<string, Record<string, unknown>> | undefined)?.[method.toLowerCase()];
    if (!found) throw new Error(`the document has no ${method} ${path}`);
    return found as {
      parameters?: Schema[];
      requestBody?: Schema;
      responses: Record<string, Schema>;
      operationId: string;
      security: unknown[];
    };
  };

  describe('endpoints', () => {
    const endpoints = [
      ...sections.flatMap((entry) => {
        const match = /^(GET|POST|PATCH|PUT|DELETE) (\/v\d\/\S+)$/.exec(entry.heading);
        return match ? [[match[1]!, match[2]!] as const] : [];
      }),
      ...section('V3 endpoints')
        .tables[0]!.slice(1)
        .map((row) => [row[0]!, codeNames(row[1]!)[0]!] as const),
    ];

    it('lists seven V4 endpoints and three V3 endpoints', () => {
      expect(endpoints.filter(([, path]) => path.startsWith('/v4/'))).toHaveLength(7);
      expect(endpoints.filter(([, path]) => path.startsWith('/v3/'))).toHaveLength(3);
    });

    it.each(endpoints)('%s %s is in the document with a versioned operationId', (method, path) => {
      const found = operation(method, path);
      expect(found.operationId).toMatch(new RegExp(`V${path[2]}$`));
    });

    it('has no other paths, and none of the removed versions', () => {
      expect(Object.keys(document.paths).sort()).toEqual(endpoints.map(([, path]) => path).sort());
      for (const path of Object.keys(document.paths)) expect(path).toMatch(/^\/v[34]\//);
    });

    it('answers create-order with 201 on success and 400 on failure, in both versions', () => {
      for (const path of ['/v4/create-order', '/v3/create-order']) {
        expect(Object.keys(operation('POST', path).responses)).toEqual(expect.arrayContaining(['201', '400']));
        expect(operation('POST', path).responses).not.toHaveProperty('200');
      }
    });
  });

  describe('get-quote parameters', () => {
    const rows = section('GET /v4/get-quote').tables[0]!.slice(1);
    const parameters = (operation('GET', '/v4/get-quote').parameters ?? []).map((parameter) => resolve(document, parameter));

    it.each(rows.map((row) => [codeNames(row[0]!)[0]!, row[1]!] as const))('%s (required: %s)', (name, required) => {
      const parameter = parameters.find((entry) => entry.name === name);
      expect(parameter, `parameter ${name}`).toBeDefined();
      expect(parameter!.in).toBe('query');
      expect(parameter!.required ?? false).toBe(required === 'yes');
      expect(types(document, parameter!.schema as Schema)).toContain('string');
    });

    it('has exactly these parameters: no ownerAddress and none of the V1 parameters', () => {
      expect(parameters.map((parameter) => parameter.name).sort()).toEqual(rows.map((row) => codeNames(row[0]!)[0]).sort());
      const removed = codeNames(/The V1 parameters (.*) are not V4 quote parameters/.exec(text)![1]!);
      expect(removed).toEqual(['affiliateId', 'gasRefill', 'strategyTarget', 'strategyMessage']);
      for (const name of [...removed, 'ownerAddress']) expect(parameters.map((parameter) => parameter.name)).not.toContain(name);
    });
  });

  it('get-orders takes cursor and limit (integer, minimum 1) in both versions', () => {
    for (const path of ['/v4/get-orders/{user_address}', '/v3/get-orders/{user_address}']) {
      const parameters = (operation('GET', path).parameters ?? []).map((parameter) => resolve(document, parameter));
      const byName = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
      expect(byName.user_address?.in).toBe('path');
      expect(byName.cursor?.required ?? false).toBe(false);
      const limit = resolve(document, byName.limit?.schema as Schema);
      expect(limit.type).toBe('integer');
      expect(limit.minimum).toBe(1);
    }
  });

  it('get-order and get-max-spendable take their path parameter', () => {
    expect((operation('GET', '/v4/get-order/{id}').parameters ?? []).map((p) => resolve(document, p).name)).toEqual(['id']);
    expect((operation('GET', '/v4/get-max-spendable/{address}').parameters ?? []).map((p) => resolve(document, p).name)).toEqual([
      'address',
    ]);
  });

  describe('model fields', () => {
    /** Section heading -> schema, for the tables whose heading does not name their model. */
    const unnamed: Record<string, string> = {
      'Resolved affiliate': 'GatewayResolvedAffiliateV2',
      'Onramp quote': 'GatewayOnrampQuoteV2',
      'Offramp quote': 'GatewayOfframpQuoteV3',
      'Token-swap quote': 'GatewayTokenSwapQuoteV3',
      'Paginated orders': 'GatewayOrdersPageV3',
      Errors: 'GatewayErrorV3',
    };
    const modelOf = (heading: string) =>
      codeNames(heading).find((name) => /^(Gateway|TokenSwap)\w+$/.test(name)) ??
      Object.entries(unnamed).find(([prefix]) => heading.startsWith(prefix))?.[1];
    const fieldTables = sections.flatMap((entry) =>
      entry.tables
        .filter((table) => table[0]![0] === 'Field')
        .map((table) => ({ model: modelOf(entry.heading), heading: entry.heading, table })),
    );

    it('finds a model for every field table of the description', () => {
      expect(fieldTables.length).toBeGreaterThanOrEqual(9);
      for (const { model, heading } of fieldTables) expect(model, heading).toBeDefined();
    });

    const fields = fieldTables.flatMap(({ model, table }) => {
      const header = table[0]!;
      const column = (name: string) => header.indexOf(name);
      return table.slice(1).flatMap((row) =>
        codeNames(row[0]!).map((field) => ({
          model: model!,
          field,
          type: row[column('Type')]!,
          required: column('Required') >= 0 ? row[column('Required')]! : undefined,
          notes: row[column('Notes')] ?? '',
        })),
      );
    });

    it.each(fields.map((entry) => [`${entry.model}.${entry.field}`, entry] as const))(
      '%s',
      (_name, { model, field, type, required, notes }) => {
        const { properties, required: requiredNames } = effective(document, componentSchema(document, model));
        const property = properties[field];
        expect(property, `${model} has ${field}`).toBeDefined();
        const admitted = types(document, property);
        const resolved = resolve(document, property);

        if (required !== undefined) expect(requiredNames.has(field), `${field} required`).toBe(required.startsWith('yes'));
        if (/or null/.test(type)) expect(admitted).toContain('null');
        else expect(admitted).not.toContain('null');
        if (/^string/.test(type)) expect(admitted).toContain('string');
        if (/^integer/.test(type)) expect(admitted).toContain('integer');
        if (/^string enum/.test(type)) expect(JSON.stringify(resolved)).toMatch(/"enum"/);
        if (/\(int(32|64)\)/.test(type)) expect(JSON.stringify(resolved)).toContain(`"format":"${/\((int\d\d)\)/.exec(type)![1]}"`);
        if (/>= 0/.test(type)) expect(JSON.stringify(resolved)).toContain('"minimum":0');
        if (/^token amount/.test(type))
          expect(Object.keys(effective(document, property).properties)).toEqual(expect.arrayContaining(['address', 'amount', 'chain']));
        if (/^array of/.test(type)) expect(admitted).toContain('array');
        if (type === 'object') {
          // An object's notes name its inner fields in their first sentence, then say which are
          // required or optional, and which fields it does not have.
          const inner = effective(document, property);
          const [listed = '', ...rest] = notes.split(/\.\s/);
          for (const name of codeNames(listed)) {
            expect(Object.keys(inner.properties), `${field}.${name}`).toContain(name);
            if (/required/.test(listed)) expect(inner.required.has(name), `${field}.${name} required`).toBe(true);
            if (new RegExp(`\`${name}\` optional`).test(listed)) expect(inner.required.has(name), `${field}.${name} optional`).toBe(false);
          }
          for (const name of codeNames(/has no (.*)/.exec(rest.join('. '))?.[1] ?? ''))
            expect(Object.keys(inner.properties)).not.toContain(name);
        }
        if (field === 'amount' || notes.includes('Smallest unit')) expect(resolved.pattern).toBe('^[0-9]+$');
      },
    );
  });

  describe('unions', () => {
    const keysOf = (schema: Schema) => branches(document, schema).map((branch) => Object.keys(branch.properties ?? {}));

    it.each(['GatewayQuoteV3', 'GatewayQuoteV4', 'GatewayCreateOrderV3'])(
      '%s is the one-key union onramp | offramp | tokenSwap',
      (name) => {
        expect(keysOf(componentSchema(document, name))).toEqual([['onramp'], ['offramp'], ['tokenSwap']]);
      },
    );

    it('the status object is one of inProgress | success | failed | refunded', () => {
      const rows = section('Status object').tables[0]!.slice(1);
      expect(keysOf(componentSchema(document, 'GatewayOrderStatusV3')).flat().sort()).toEqual(
        rows.map((row) => codeNames(row[0]!)[0]).sort(),
      );
      const status = Object.fromEntries(
        branches(document, componentSchema(document, 'GatewayOrderStatusV3')).map((branch) => [
          Object.keys(branch.properties!)[0],
          branch.properties!,
        ]),
      );
      for (const [key, inner] of [
        ['inProgress', ['pending_btc_payment', 'refund_tx']],
        ['success', ['received_tokens']],
        ['refunded', ['refunded_tokens']],
      ] as const) {
        const { properties, required } = effective(document, status[key]![key]);
        for (const name of inner) {
          expect(properties).toHaveProperty(name);
          expect(required.has(name)).toBe(true);
        }
      }
      const transfer = effective(
        document,
        resolve(document, effective(document, status.success!.success).properties.received_tokens).items,
      );
      expect([...transfer.required].sort()).toEqual(['amount', 'chain', 'token', 'txHash']);
      expect(transfer.properties).toHaveProperty('usd');
    });

    it('the create-order result carries the fields of each route', () => {
      const rows = section('Create-order result').tables[0]!.slice(1);
      const byKey = Object.fromEntries(
        branches(document, componentSchema(document, 'GatewayCreateOrderV3')).map((branch) => [
          Object.keys(branch.properties!)[0],
          branch.properties!,
        ]),
      );
      for (const row of rows) {
        const key = codeNames(row[0]!)[0]!;
        const { properties, required } = effective(document, byKey[key]![key]);
        for (const part of row[1]!.split(/,\s*(?=`)/)) {
          const name = codeNames(part)[0]!;
          expect(properties, `${key}.${name}`).toHaveProperty(name);
          if (/required/.test(part)) expect(required.has(name), `${key}.${name} required`).toBe(true);
          if (/optional|or null/.test(part)) expect(required.has(name), `${key}.${name} optional`).toBe(false);
          if (/or null/.test(part)) expect(types(document, properties[name])).toContain('null');
        }
      }
    });

    it('GatewayTxData is tagged by type with the fields of each chain', () => {
      const rows = section('Transaction data').tables[0]!.slice(1);
      const byType = Object.fromEntries(
        branches(document, componentSchema(document, 'GatewayTxData')).map((branch) => [(branch.properties!.type as Schema).const, branch]),
      );
      for (const row of rows) {
        const tag = codeNames(row[0]!)[0]!;
        const branch = byType[tag];
        expect(branch, tag).toBeDefined();
        for (const name of codeNames(row[1]!)) expect(branch!.properties, `${tag}.${name}`).toHaveProperty(name);
      }
      expect(resolve(document, byType.solana!.properties!.chainId)).toMatchObject({ type: 'integer', format: 'int64', minimum: 0 });
    });

    it('the route entry has its four fields', () => {
      const fields = codeNames(section('Route entry').body);
      expect([...effective(document, componentSchema(document, 'GatewayRouteV2')).required].sort()).toEqual(fields.sort());
    });

    it('register-tx takes only onramp { order_id, bitcoin_tx_hex } and answers a string or { onramp: { txid } }', () => {
      const body = resolve(
        document,
        (resolve(document, operation('PATCH', '/v4/register-tx').requestBody) as { content: Record<string, { schema: Schema }> }).content[
          'application/json'
        ]!.schema,
      );
      expect(Object.keys(body.properties!)).toEqual(['onramp']);
      expect(body.additionalProperties).toBe(false);
      const inner = effective(document, body.properties!.onramp);
      expect([...inner.required].sort()).toEqual(['bitcoin_tx_hex', 'order_id']);
      const result = branches(document, componentSchema(document, 'GatewayRegisterTxResultV4'));
      expect(result.map((branch) => branch.type)).toEqual(['string', 'object']);
      expect(effective(document, result[1]!.properties!.onramp).properties).toHaveProperty('txid');
    });
  });

  describe('errors', () => {
    const groups = section('Error codes')
      .tables[0]!.slice(1)
      .map((row) => ({ group: row[0]!, codes: codeNames(row[1]!) }));
    const version = (group: string) => (group === 'Base' ? 'base' : /Added in (V\d)/.exec(group)![1]!);
    const v3 = resolve(document, componentSchema(document, 'GatewayErrorCodeV3'));
    const v4Added = branches(document, componentSchema(document, 'GatewayErrorCodeV4')).find(
      (branch) => !branch.$ref && branch.enum && !(branch.enum as string[]).includes('INVALID_REQUEST'),
    )!;

    it.each(groups.flatMap(({ group, codes }) => codes.map((code) => [code, version(group)] as const)))(
      '%s (introduced %s)',
      (code, introduced) => {
        const home = introduced === 'V4' ? v4Added : v3;
        expect(home.enum).toContain(code);
        expect((home['x-introduced-in'] as Record<string, string>)[code]).toBe(introduced);
        if (introduced === 'V4') expect(v3.enum).not.toContain(code);
      },
    );

    it('the enums hold no code the description does not list', () => {
      const listed = groups.flatMap(({ codes }) => codes).sort();
      expect([...(v3.enum as string[]), ...(v4Added.enum as string[])].sort()).toEqual(listed);
    });

    it('the detail shapes are the flat set of the description, null included', () => {
      const rows = section('Detail shapes')
        .tables[0]!.slice(1)
        .map((row) => codeNames(row[0]!));
      const shapes = branches(document, componentSchema(document, 'GatewayErrorDetails'));
      const shapeKeys = shapes.map((shape) => (shape.type === 'null' ? ['null'] : Object.keys(shape.properties ?? {})).sort().join(','));
      const rowKeys = rows.map((names) => (names.length ? names : ['null']).sort().join(','));
      expect(shapeKeys.sort()).toEqual(rowKeys.sort());
      const simulation = shapes.find((shape) => shape.properties?.tenderly_url)!;
      expect(simulation.required ?? []).toEqual([]);
      expect(types(document, simulation.properties!.tenderly_url)).toEqual(new Set(['string', 'null']));
      expect(types(document, shapes.find((shape) => shape.properties?.addresses)!.properties!.addresses)).toEqual(new Set(['array']));
    });

    it('the register-tx error body is error with optional details (expected, actual)', () => {
      const body = effective(document, componentSchema(document, 'GatewayRegisterTxErrorV4'));
      expect([...body.required]).toEqual(['error']);
      const shapes = branches(document, body.properties.details!);
      expect(shapes.some((shape) => shape.properties?.expected && shape.properties?.actual)).toBe(true);
    });
  });

  describe('authentication', () => {
    const scheme = (document.components.securitySchemes as Record<string, Record<string, string>>).apiKey!;

    it('is an optional bearer key of exactly 32 characters', () => {
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(scheme.description).toMatch(/exactly 32 characters/);
      expect(scheme.description).toContain('Authorization: Bearer <API_KEY>');
    });

    it('every operation accepts no key or the key', () => {
      for (const { method, path, definition } of readOperations(document))
        expect(definition.security, `${method} ${path}`).toEqual([{}, { apiKey: [] }]);
    });
  });

  it('publishes production and staging at configurable, distinct addresses, and no loopback server', () => {
    const servers = document.servers as { url: string; description: string; variables?: Record<string, unknown> }[];
    expect(servers.map((server) => server.description)).toEqual(['Production.', 'Staging.']);
    for (const server of servers) expect(Object.keys(server.variables ?? {})).not.toHaveLength(0);
    expect(new Set(servers.map((server) => server.url)).size).toBe(servers.length);
  });
});
