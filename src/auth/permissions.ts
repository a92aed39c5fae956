/** Store permissions and the check on them live in the shared leaf modules; this re-exports them for auth's callers. */
export { isPermission, type Permission, PERMISSIONS } from '../domain/access';
export { hasStorePermission, type UserPrincipal as Viewer, type ViewerMembership } from '../domain/principal';
