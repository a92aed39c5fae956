/** The permissions a staff member can hold, in the service's order, with what each allows. */
export const PERMISSIONS: { value: string; label: string; help: string }[] = [
  { value: 'manage_products', label: 'Products and categories', help: 'Create, edit, publish and delete products and categories, and reset the test catalog.' },
  { value: 'manage_api_keys', label: 'API keys', help: "Create, roll and revoke the store's API keys." },
  { value: 'manage_oauth_apps', label: 'OAuth apps', help: 'Manage the OAuth apps connected to the store.' },
  { value: 'view_changes', label: 'Change history', help: "See the history of every product and the store's activity." },
  { value: 'manage_webhooks', label: 'Webhooks', help: 'Add webhook endpoints and see their delivery log.' },
];

/** Permissions in the service's order. */
export const inOrder = (permissions: readonly string[]) => PERMISSIONS.map((p) => p.value).filter((p) => permissions.includes(p));

/** "Products and categories, Webhooks", or "no permissions". */
export const labelsOf = (permissions: readonly string[]) => {
  const labels = inOrder(permissions).map((p) => PERMISSIONS.find((x) => x.value === p)!.label);
  return labels.length > 0 ? labels.join(', ') : 'no permissions';
};
