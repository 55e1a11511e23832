import {
  type CalendarGateway,
  type CalendarProfile,
  LabelExistsError,
  type OAuthConnector,
  ProviderRequestError,
  ProviderUnauthorizedError,
  type TodoistGateway,
  type TodoistLabel,
  type TodoistProfile,
  type TodoistProject,
} from '../integrations/integration-providers.port.ts';

/** What a fake provider was asked, in order (method and arguments, tokens included). */
export type Call = { method: string; args: unknown[] };

/** The OAuth side every fake provider shares: codes are exchanged for `access-<code>`. */
function fakeConnector(name: string, calls: Call[], failing: { revoke?: boolean }): OAuthConnector {
  return {
    async authorizationUrl(flow, redirectUri) {
      calls.push({ method: 'authorizationUrl', args: [flow.provider, redirectUri] });
      return new URL(`https://${name}.test/authorize?state=${flow.state}`);
    },
    async exchange(callbackUrl) {
      const code = callbackUrl.searchParams.get('code') ?? 'none';
      calls.push({ method: 'exchange', args: [code] });
      return { accessToken: `access-${code}`, refreshToken: `refresh-${code}`, expiresAt: null };
    },
    async refresh(refreshToken) {
      calls.push({ method: 'refresh', args: [refreshToken] });
      return { accessToken: `${refreshToken}-renewed`, refreshToken, expiresAt: null };
    },
    async revoke(tokens) {
      calls.push({ method: 'revoke', args: [tokens.accessToken] });
      if (failing.revoke) throw new ProviderRequestError(`${name} revocation failed`, 503);
    },
  };
}

export type FakeTodoist = TodoistGateway & {
  calls: Call[];
  labelList: TodoistLabel[];
  /** The account's active projects (an Inbox by default). */
  projectList: TodoistProject[];
  account: TodoistProfile;
  /** Every read and write answers this error while set. */
  failWith: Error | null;
  failing: { revoke?: boolean };
  /** Tokens the provider refuses with 401. */
  refusedTokens: Set<string>;
};

/** A Todoist account with labels; label writes change them as Todoist would. */
export function fakeTodoist(labels: TodoistLabel[] = []): FakeTodoist {
  const calls: Call[] = [];
  const failing: { revoke?: boolean } = {};
  const fake: FakeTodoist = {
    ...fakeConnector('todoist', calls, failing),
    calls,
    failing,
    labelList: labels.map((label) => ({ ...label })),
    projectList: [{ id: 'inbox-1', name: 'Inbox', color: 'grey', parentId: null, inbox: true, order: 0 }],
    account: { userId: 'todoist-42', premiumStatus: 'current_personal_plan', timezone: 'Europe/Berlin' },
    failWith: null,
    refusedTokens: new Set(),
    async profile(token) {
      check('profile', [token]);
      return fake.account;
    },
    async labels(token) {
      check('labels', [token]);
      return fake.labelList.map((label) => ({ ...label }));
    },
    async projects(token) {
      check('projects', [token]);
      return fake.projectList.map((project) => ({ ...project }));
    },
    async addLabel(token, label) {
      check('addLabel', [token, label]);
      if (fake.labelList.some((other) => other.name === label.name)) throw new LabelExistsError(label.name);
      fake.labelList.push({
        id: `l${fake.labelList.length + 10}`,
        ...label,
        item_order: fake.labelList.length + 1,
      });
    },
    async updateLabelColor(token, labelId, color) {
      check('updateLabelColor', [token, labelId, color]);
      const label = fake.labelList.find((entry) => entry.id === labelId);
      if (!label) throw new ProviderRequestError('Could not update a label', 404);
      label.color = color;
    },
    async deleteLabel(token, labelId) {
      check('deleteLabel', [token, labelId]);
      const index = fake.labelList.findIndex((entry) => entry.id === labelId);
      if (index < 0) throw new ProviderRequestError('Could not delete a label', 404);
      fake.labelList.splice(index, 1);
    },
  };
  function check(method: string, args: unknown[]) {
    calls.push({ method, args });
    if (fake.failWith) throw fake.failWith;
    if (fake.refusedTokens.has(args[0] as string)) throw new ProviderUnauthorizedError('401');
  }
  return fake;
}

export type FakeCalendar = CalendarGateway & {
  calls: Call[];
  account: CalendarProfile;
  failWith: Error | null;
  failing: { revoke?: boolean };
};

export function fakeCalendar(name: 'google' | 'microsoft'): FakeCalendar {
  const calls: Call[] = [];
  const failing: { revoke?: boolean } = {};
  const fake: FakeCalendar = {
    ...fakeConnector(name, calls, failing),
    calls,
    failing,
    failWith: null,
    account: {
      accountId: `${name}-account`,
      email: `ada@${name}.example`,
      calendars: [{ id: `${name}-primary`, name: 'Primary', color: null, timeZone: 'Europe/Berlin' }],
      categories: name === 'microsoft' ? [{ id: 'c1', displayName: 'Focus', color: 'preset0' }] : [],
    },
    async profile(token) {
      calls.push({ method: 'profile', args: [token] });
      if (fake.failWith) throw fake.failWith;
      return fake.account;
    },
  };
  return fake;
}
