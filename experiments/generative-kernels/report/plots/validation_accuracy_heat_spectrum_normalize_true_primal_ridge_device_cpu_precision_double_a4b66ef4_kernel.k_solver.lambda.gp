# kexp plot; run `gnuplot validation_accuracy_heat_spectrum_normalize_true_primal_ridge_device_cpu_precision_double_a4b66ef4_kernel.k_solver.lambda.gp` here to redraw validation_accuracy_heat_spectrum_normalize_true_primal_ridge_device_cpu_precision_double_a4b66ef4_kernel.k_solver.lambda.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'validation_accuracy_heat_spectrum_normalize_true_primal_ridge_device_cpu_precision_double_a4b66ef4_kernel.k_solver.lambda.svg'
set title 'spectrum normalize=true · primal_ridge device=cpu precision=double (primal) · min_length = 100, max_length = 100: validation accuracy over k and λ'
set xlabel 'k (kernel.k)'
set ylabel 'λ (solver.lambda)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:3.5]
set yrange [-0.5:3.5]
set xtics ('1' 0, '2' 1, '3' 2, '4' 3)
set ytics ('0.001' 0, '0.01' 1, '0.1' 2, '1' 3)
unset grid
set cblabel 'validation accuracy (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 0.7775221636180003
1 0 0.7649721318220926
2 0 0.7291612114864274
3 0 0.5966159179042133

0 1 0.7775221636180003
1 1 0.7633199915210912
2 1 0.7249778675544584
3 1 0.6391476202945174

0 2 0.7791930073941072
1 2 0.7624721006496341
2 2 0.7282821481564609
3 2 0.6658437137620171

0 3 0.7775221636180003
1 3 0.7658324916769536
2 3 0.7516116161049391
3 3 0.7199341637676281

EOD
set object 1 rect from 0-0.5, 2-0.5 to 0+0.5, 2+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
