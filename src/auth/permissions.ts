/** Permissions a store membership can hold. Owners hold all of them implicitly. */
export const PERMISSIONS = ['manage_products', 'manage_api_keys', 'manage_oauth_apps'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface ViewerMembership {
  storeId: string;
  role: 'owner' | 'staff';
  permissions: string[];
}

/** The authenticated dashboard user of a request. */
export interface Viewer {
  userId: string;
  email: string;
  tokenId: string;
  memberships: ViewerMembership[];
}

export function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

export function hasStorePermission(viewer: Viewer | null | undefined, storeId: string, permission: Permission): boolean {
  const m = viewer?.memberships.find((x) => x.storeId === storeId);
  return !!m && (m.role === 'owner' || m.permissions.includes(permission));
}
