export * from './queues';
export { reconcileStranded } from './reconcile-stranded';
