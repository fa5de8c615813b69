// <sb-gpu-cluster>: chapter 12's cluster builder, the calculator form with the cluster's tree
// and its levels' bandwidths after it (cluster-view.js), redrawn with every result.
import { calculatorWithExtras } from '../core/sb-calculator-extras.js';
import { clusterExtrasHTML } from './cluster-view.js';
import './gpus-css.js';

export class SbGpuCluster extends calculatorWithExtras('gpu-cluster', clusterExtrasHTML) {}
